/**
 * The transactional outbox: a change that produces an event adds `eventPut(...)` to its own
 * TransactWriteItems, so the event exists exactly when the change does. The stream router
 * (events/router.ts) reads only inserts of these EVENT items.
 */
import type * as z from 'zod';
import type { Tenant } from '#shared/auth/principal';
import { tenantKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { prefixedId } from '#shared/ids';
import type { EventDefinition, EventKind } from './catalogue';

/** Events are kept 30 days (then removed by TTL); deliveries keep their own history. */
export const EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

export interface OutboxEvent {
  id: string;
  kind: EventKind;
  tenant: Tenant;
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * `testTarget`: a sample for one registration, kept out of the tenant's event collections;
 * otherwise listed in them, by id (= time): all kinds (gsi1) and its kind (gsi2), which
 * `GET /v1/events` pages through.
 */
function storedEventPut(
  tenant: Tenant,
  kind: EventKind,
  data: Record<string, unknown>,
  now: Date,
  testTarget?: number,
): { event: OutboxEvent; item: TransactItem } {
  const event: OutboxEvent = { id: prefixedId('evt'), kind, tenant, createdAt: now.toISOString(), data };
  const placement =
    testTarget === undefined
      ? { gsi1pk: tenantKeys.eventsCollection(tenant), gsi1sk: event.id, gsi2pk: tenantKeys.eventsOfKind(tenant, kind), gsi2sk: event.id }
      : { test: true, target_webhook_id: testTarget };
  const item: TransactItem = {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.event(tenant, event.id),
        entity: 'EVENT',
        event_id: event.id,
        kind,
        account_id: tenant.accountId,
        mode: tenant.mode,
        created_at: event.createdAt,
        data,
        // DynamoDB maps do not keep key order; webhook bodies are built from this exact JSON so
        // receivers get the resource with its fields in the API's order.
        data_json: JSON.stringify(data),
        expires_at: Math.floor(now.getTime() / 1000) + EVENT_RETENTION_SECONDS,
        ...placement,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  return { event, item };
}

/**
 * Builds the event of `definition` with `data` (its payload: the resource under its type name,
 * e.g. `{ order }`) and the transaction item that stores it, in the tenant's event collection.
 */
export function eventPut<K extends EventKind, S extends z.ZodType>(
  tenant: Tenant,
  definition: EventDefinition<K, S>,
  data: z.output<S>,
  now = new Date(),
): { event: OutboxEvent; item: TransactItem } {
  return storedEventPut(tenant, definition.kind, data as Record<string, unknown>, now);
}

/**
 * A sample event for `POST /v1/webhooks/{id}/test`: written to the outbox like any event, so it
 * travels the same stream → router → queue → delivery path, but marked `test` and addressed to
 * one registration (the router sends it there only, whatever that registration subscribes to).
 * It stays out of the tenant's event collection. Samples exist for every kind, also those no
 * resource emits yet, so they are not typed by a definition.
 */
export function testEventPut(
  tenant: Tenant,
  kind: EventKind,
  data: Record<string, unknown>,
  webhookId: number,
  now = new Date(),
): { event: OutboxEvent; item: TransactItem } {
  return storedEventPut(tenant, kind, data, now, webhookId);
}

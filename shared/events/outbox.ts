/**
 * The transactional outbox: a change that produces an event adds `eventPut(...)` to its own
 * TransactWriteItems, so the event exists exactly when the change does. The stream router
 * (webhooks) reads only inserts of these EVENT items.
 */
import type { Tenant } from '#shared/auth/principal';
import { tenantKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { prefixedId } from '#shared/ids';
import { resourceTypeOf, type EventKind } from './catalogue';

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
 * Builds the event and the transaction item that stores it. `resource` goes under its type name
 * (`data.customer`, `data.order`…); `extra` adds siblings (e.g. the changed address).
 */
export function eventPut(
  tenant: Tenant,
  kind: EventKind,
  resource: unknown,
  extra: Record<string, unknown> = {},
  now = new Date(),
): { event: OutboxEvent; item: TransactItem } {
  const event: OutboxEvent = {
    id: prefixedId('evt'),
    kind,
    tenant,
    createdAt: now.toISOString(),
    data: { [resourceTypeOf[kind]]: resource, ...extra },
  };
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
        data: event.data,
        // DynamoDB maps do not keep key order; webhook bodies are built from this exact JSON so
        // receivers get the resource with its fields in the API's order.
        data_json: JSON.stringify(event.data),
        expires_at: Math.floor(now.getTime() / 1000) + EVENT_RETENTION_SECONDS,
        gsi1pk: tenantKeys.eventsCollection(tenant),
        gsi1sk: event.id,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  return { event, item };
}

/**
 * A sample event for `POST /v1/webhooks/{id}/test`: written to the outbox like any event, so it
 * travels the same stream → router → queue → delivery path, but marked `test` and addressed to
 * one registration (the router sends it there only, whatever that registration subscribes to).
 * It stays out of the tenant's event collection.
 */
export function testEventPut(tenant: Tenant, kind: EventKind, data: Record<string, unknown>, webhookId: number, now = new Date()): { event: OutboxEvent; item: TransactItem } {
  const { event, item } = eventPut(tenant, kind, undefined, {}, now);
  const testEvent: OutboxEvent = { ...event, data };
  const { gsi1pk: _gsi1pk, gsi1sk: _gsi1sk, ...stored } = item.Put!.Item!;
  return { event: testEvent, item: { Put: { ...item.Put!, Item: { ...stored, data, data_json: JSON.stringify(data), test: true, target_webhook_id: webhookId } } } };
}

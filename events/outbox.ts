/**
 * The transactional outbox: a change that produces an event adds `eventPut(...)` to its own
 * TransactWriteItems, so the event exists exactly when the change does. The stream router
 * (webhooks) reads only inserts of these EVENT items.
 */
import type { Tenant } from '../shared/auth/principal';
import { tenantKeys } from '../shared/db/keys';
import { tableName, type TransactItem } from '../shared/db/table';
import { prefixedId } from '../shared/ids';
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
        expires_at: Math.floor(now.getTime() / 1000) + EVENT_RETENTION_SECONDS,
        gsi1pk: tenantKeys.eventsCollection(tenant),
        gsi1sk: event.id,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
  return { event, item };
}

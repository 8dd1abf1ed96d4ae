/**
 * Reading outbox events back: from a stream record's new image (the router) or by key (the
 * delivery worker, which builds the body from the stored event on every attempt).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';

export interface StoredEvent {
  event_id: string;
  kind: string;
  tenant: Tenant;
  created_at: string;
  data: Record<string, unknown>;
  /** A sample from the test endpoint, addressed to `target_webhook_id` only. */
  test: boolean;
  target_webhook_id: number | null;
  /** Unix seconds; deliveries and their attempts expire with their event. */
  expires_at: number;
}

/** Undefined for anything that is not a well-formed EVENT item. */
export function eventFromItem(item: Record<string, unknown>): StoredEvent | undefined {
  if (item.entity !== 'EVENT' || typeof item.event_id !== 'string' || typeof item.kind !== 'string' || typeof item.account_id !== 'string')
    return undefined;
  if (item.mode !== 'test' && item.mode !== 'live') return undefined;
  return {
    event_id: item.event_id,
    kind: item.kind,
    tenant: { accountId: item.account_id, mode: item.mode },
    created_at: String(item.created_at),
    data:
      typeof item.data_json === 'string'
        ? (JSON.parse(item.data_json) as Record<string, unknown>)
        : ((item.data as Record<string, unknown> | undefined) ?? {}),
    test: item.test === true,
    target_webhook_id: item.target_webhook_id === undefined || item.target_webhook_id === null ? null : Number(item.target_webhook_id),
    expires_at: Number(item.expires_at),
  };
}

export async function readEvent(tenant: Tenant, eventId: string): Promise<StoredEvent | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.event(tenant, eventId) }));
  return result.Item ? eventFromItem(result.Item) : undefined;
}

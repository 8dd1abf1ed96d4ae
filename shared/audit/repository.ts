/**
 * Audit records: one item per API call in the tenant's audit partition, sorted by time, kept
 * 90 days (TTL). Listing is a Query over a time range with filters; `total` is a COUNT over the
 * same range and filters (audit reads are rare; the range is bounded to 31 days per request).
 */
import type { Tenant } from '#shared/auth/principal';
import { tenantKeys } from '#shared/db/keys';
import { countAll, queryPages, type QueryInput } from '#shared/db/query';
import { batchWriteAll, putRequest } from '#shared/db/batch';
import { auditFromItem, auditItem, type AuditRecord } from './stored';

/**
 * Stores many records at once (the shipper). Keyed by time and request id, so a record shipped
 * twice (log delivery is at-least-once) is written twice to the same item: no duplicates.
 */
export async function putAuditRecords(records: { tenant: Tenant; record: AuditRecord }[]): Promise<void> {
  const unique = new Map(
    records.map(({ tenant, record }) => {
      const item = auditItem(tenant, record);
      return [`${item.pk}|${item.sk}`, item] as const;
    }),
  );
  await batchWriteAll([...unique.values()].map(putRequest));
}

export interface AuditFilter {
  from: string;
  to: string;
  status?: { min: number; max: number };
  method?: string;
  pathPrefix?: string;
}

function queryInput(tenant: Tenant, filter: AuditFilter): QueryInput {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':pk': tenantKeys.auditPartition(tenant),
    ':from': filter.from,
    // '~' sorts after every request id character, so the whole last millisecond is included.
    ':to': `${filter.to}~`,
  };
  const conditions: string[] = [];
  if (filter.status) {
    names['#status'] = 'status';
    values[':smin'] = filter.status.min;
    values[':smax'] = filter.status.max;
    conditions.push('#status BETWEEN :smin AND :smax');
  }
  if (filter.method) {
    names['#method'] = 'method';
    values[':method'] = filter.method;
    conditions.push('#method = :method');
  }
  if (filter.pathPrefix) {
    names['#path'] = 'path';
    values[':path'] = filter.pathPrefix;
    conditions.push('begins_with(#path, :path)');
  }
  return {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ...(conditions.length ? { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
  };
}

export const countAuditRecords = (tenant: Tenant, filter: AuditFilter): Promise<number> => countAll(queryInput(tenant, filter));

/** Records `offset … offset + limit` of the filtered range, newest first. */
export async function readAuditRecords(tenant: Tenant, filter: AuditFilter, offset: number, limit: number): Promise<AuditRecord[]> {
  // A filter expression leaves pages short: read until enough matches arrived (no Limit, which counts before filtering).
  const matches: Record<string, unknown>[] = [];
  for await (const page of queryPages(queryInput(tenant, filter))) {
    matches.push(...page.items);
    if (matches.length >= offset + limit) break;
  }
  return matches.slice(offset, offset + limit).map(auditFromItem);
}

/**
 * Audit records: one item per API call in the tenant's audit partition, sorted by time, kept
 * 90 days (TTL). Listing is a Query over a time range, newest first, by cursor: a page reads
 * `per_page + 1` records (the one beyond says whether more follow); with filters — which DynamoDB
 * applies after reading — at most AUDIT_EXAMINE_LIMIT records per request, so a page may come
 * back short with a cursor to go on from. Nothing counts the range: a busy tenant's week is about
 * a million records, and no request may read them all (docs/platform.md#audit-log).
 */
import type { Tenant } from '#shared/auth/principal';
import { cursorKeys, tenantKeys } from '#shared/db/keys';
import { queryPages, type QueryInput } from '#shared/db/query';
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

/** Records one filtered request may read at most (about 400 KB): a page of a sparse filter may come back short. */
export const AUDIT_EXAMINE_LIMIT = 1000;
/** Filtered reads ask DynamoDB for records in chunks of at least this many (one Query each). */
const FILTERED_CHUNK = 250;

const hasFilter = (filter: AuditFilter): boolean => Boolean(filter.status || filter.method || filter.pathPrefix);

export interface AuditPage {
  records: AuditRecord[];
  /** The sort key the next page starts after; undefined when the range holds no more. */
  next: string | undefined;
}

/**
 * Up to `perPage` records of the filtered range, newest first, after the sort key `after` (a
 * cursor). Reads `perPage + 1` records without filters, at most AUDIT_EXAMINE_LIMIT with them.
 */
export async function readAuditPage(tenant: Tenant, filter: AuditFilter, perPage: number, after?: string): Promise<AuditPage> {
  const input = queryInput(tenant, filter);
  const startAfter = after === undefined ? undefined : { ...cursorKeys.audit(tenant, after) };
  const filtered = hasFilter(filter);
  const pages = filtered
    ? queryPages({ ...input, Limit: Math.max(perPage + 1, FILTERED_CHUNK) }, { maxScanned: AUDIT_EXAMINE_LIMIT, startAfter })
    : queryPages(input, { max: perPage + 1, startAfter });
  const matches: Record<string, unknown>[] = [];
  let stoppedAt: string | undefined;
  for await (const page of pages) {
    matches.push(...page.items);
    stoppedAt = page.lastKey === undefined ? undefined : String(page.lastKey.sk);
    if (matches.length > perPage) break;
  }
  const records = matches.slice(0, perPage).map(auditFromItem);
  if (matches.length > perPage) return { records, next: String(matches[perPage - 1]!.sk) };
  // Short: the range is exhausted, or (filtered) the request read all it may — go on from where it stopped.
  return { records, next: filtered ? stoppedAt : undefined };
}

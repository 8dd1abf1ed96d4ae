/** Listing the audit log (records arrive through the log sink and the shipper, see sink.ts). */
import type { Tenant } from '#shared/auth/principal';
import { ValidationError } from '#shared/errors';
import { cursorTime, encodeAuditCursor } from './cursor';
import * as repo from './repository';
import type { AuditListQuery, AuditLog } from './schema';

const DAY_MS = 24 * 3600 * 1000;
export const MAX_RANGE_DAYS = 31;

function statusRange(status: string | undefined) {
  if (!status) return undefined;
  if (status.endsWith('xx')) {
    const base = Number(status[0]) * 100;
    return { min: base, max: base + 99 };
  }
  return { min: Number(status), max: Number(status) };
}

const iso = (time: string | number): string => new Date(time).toISOString();

/**
 * One page of the audit log, newest first, and the cursor of the next (undefined on the last).
 * The range is `from`…`to` (default: the 7 days before now); with a cursor, the page starts after
 * it and `from` defaults to the first page's. Reads at most a page's worth of records (more only
 * with filters, up to repo.AUDIT_EXAMINE_LIMIT), never the whole range.
 */
export async function listAudit(tenant: Tenant, query: AuditListQuery, now = Date.now()): Promise<{ items: AuditLog[]; next?: string }> {
  const cursor = query.starting_after;
  const to = query.to ? iso(query.to) : iso(now);
  const from = query.from ? iso(query.from) : (cursor?.from ?? iso(Date.parse(to) - 7 * DAY_MS));
  // A cursor bounds the range from above: the pages after it cover at most the first page's range.
  const upper = cursor && cursorTime(cursor) < to ? cursorTime(cursor) : to;
  if (Date.parse(upper) - Date.parse(from) > MAX_RANGE_DAYS * DAY_MS) {
    throw new ValidationError('The date range is too long', [
      { field: 'from', message: `from and to may be at most ${MAX_RANGE_DAYS} days apart` },
    ]);
  }
  const filter: repo.AuditFilter = { from, to, status: statusRange(query.status), method: query.method, pathPrefix: query.path_prefix };
  // The cursor must lie inside the range: older than its start, nothing is left; newer than its end, the page starts at `to`.
  if (cursor && cursor.after < from) return { items: [] };
  const after = cursor && cursor.after <= `${to}~` ? cursor.after : undefined;
  const page = await repo.readAuditPage(tenant, filter, query.per_page, after);
  return {
    items: page.records,
    ...(page.next === undefined ? {} : { next: encodeAuditCursor({ after: page.next, from }) }),
  };
}

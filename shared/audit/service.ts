/** Listing the audit log (records arrive through the log sink and the shipper, see sink.ts). */
import type { Tenant } from '#shared/auth/principal';
import { ValidationError } from '#shared/errors';
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

export async function listAudit(tenant: Tenant, query: AuditListQuery, now = Date.now()): Promise<{ items: AuditLog[]; total: number }> {
  const to = query.to ? new Date(query.to).toISOString() : new Date(now).toISOString();
  const from = query.from ? new Date(query.from).toISOString() : new Date(Date.parse(to) - 7 * DAY_MS).toISOString();
  if (Date.parse(to) - Date.parse(from) > MAX_RANGE_DAYS * DAY_MS) {
    throw new ValidationError('The date range is too long', [
      { field: 'from', message: `from and to may be at most ${MAX_RANGE_DAYS} days apart` },
    ]);
  }
  const filter: repo.AuditFilter = { from, to, status: statusRange(query.status), method: query.method, pathPrefix: query.path_prefix };
  const [items, total] = await Promise.all([
    repo.readAuditRecords(tenant, filter, (query.page - 1) * query.per_page, query.per_page),
    repo.countAuditRecords(tenant, filter),
  ]);
  return { items, total };
}

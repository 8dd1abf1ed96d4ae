/**
 * The audit record leaves the request path as one JSON line on stdout — no DynamoDB call while
 * the client waits. On Lambda, stdout goes to CloudWatch Logs and a subscription filter on
 * `{ $.audit.request_id = "*" }` hands these lines to the audit shipper (functions/audit/ship.ts),
 * which writes them to the table; locally the runtime tees stdout into the same shipper
 * (local-aws/audit-shipping.ts). Writing to a pipe is synchronous on Linux, so the line is
 * out before the response is returned and cannot be lost with a frozen or crashed instance.
 */
import type { Tenant } from '#shared/auth/principal';
import type { AuditRecord } from './stored';

export interface AuditLine {
  audit: AuditRecord & { account_id: string; mode: Tenant['mode'] };
}

/** Lines that start with this are audit records (cheap to recognise before parsing). */
export const AUDIT_LINE_PREFIX = '{"audit":';

export function emitAudit(tenant: Tenant, record: AuditRecord): void {
  const line: AuditLine = { audit: { account_id: tenant.accountId, mode: tenant.mode, ...record } };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** Parses one log message back into its tenant and record; undefined for anything else. */
export function parseAuditLine(message: string): { tenant: Tenant; record: AuditRecord } | undefined {
  const text = message.trim();
  if (!text.startsWith(AUDIT_LINE_PREFIX)) return undefined;
  try {
    const { audit } = JSON.parse(text) as AuditLine;
    const { account_id, mode, ...record } = audit;
    if (typeof account_id !== 'string' || (mode !== 'test' && mode !== 'live') || typeof record.request_id !== 'string') return undefined;
    return { tenant: { accountId: account_id, mode }, record };
  } catch {
    return undefined;
  }
}

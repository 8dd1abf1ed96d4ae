/**
 * How an audit record is stored: one item per API call in the tenant's audit partition, sorted by
 * time then request id (shared/db/keys.ts), kept 90 days (TTL). Its fields are listed once here;
 * the API shows the record as stored.
 */
import type { Tenant } from '#shared/auth/principal';
import { tenantKeys } from '#shared/db/keys';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';

export const AUDIT_RETENTION_SECONDS = 90 * 24 * 3600;

/** A change the call made that is audited field by field (a customer's tax treatment override): old and new values. */
const auditChange = /* @__PURE__ */ (() =>
  c.object(
    {
      resource: field(c.string).describe('The kind of resource changed', 'customer'),
      resource_id: field(c.string).describe('Its id', '42'),
      field: field(c.string).describe('The field changed', 'tax_treatment_override'),
      old: field(c.nullable(c.string)).describe('Its value before (null: none)'),
      new: field(c.nullable(c.string)).describe('Its value after (null: none)'),
    },
    { id: 'AuditChange' },
  ))();

export interface AuditChange {
  resource: string;
  resource_id: string;
  field: string;
  old: string | null;
  new: string | null;
}

/** How a domain function reports an audited change it made: it joins the call's own audit record. */
export type RecordChange = (change: AuditChange) => void;

export const storedAuditLog = /* @__PURE__ */ (() =>
  entity({
    request_id: field(c.string).fixed(),
    created_at: field(c.timestamp).fixed(),
    key_id: field(c.nullable(c.string)).fixed(),
    key_prefix: field(c.nullable(c.string)).fixed().describe('First characters of the key, never the key'),
    customer_id: field(c.nullable(c.int)).fixed().describe('Set for calls made with a customer token'),
    actor: field(c.nullable(c.string))
      .fixed()
      .describe('Who called: `customer:<id>` for a customer token, `key:<key prefix>` for an API key (null on records before it was kept)'),
    method: field(c.string).fixed(),
    path: field(c.string).fixed(),
    route: field(c.nullable(c.string)).fixed(),
    status: field(c.int).fixed(),
    source_ip: field(c.nullable(c.string)).fixed(),
    user_agent: field(c.nullable(c.string)).fixed(),
    duration_ms: field(c.int).fixed(),
    changes: field(c.list(auditChange))
      .fixed()
      .describe('The audited field changes the call made, with their old and new values (empty for most calls)'),
  }))();

export type AuditRecord = RecordOf<typeof storedAuditLog.shape>;

export const auditFromItem: typeof storedAuditLog.read = (value) => storedAuditLog.read(value);

export function auditItem(tenant: Tenant, record: AuditRecord): Record<string, unknown> {
  return {
    ...tenantKeys.audit(tenant, record.created_at, record.request_id),
    entity: 'AUDIT',
    ...storedAuditLog.attributes(record, 'put'),
    expires_at: Math.floor(Date.parse(record.created_at) / 1000) + AUDIT_RETENTION_SECONDS,
  };
}

/** What every audited call has, taken from its API Gateway event (a proxy or an authorizer request). */
interface CalledEvent {
  httpMethod: string;
  path: string;
  headers?: Record<string, string | undefined> | null;
  requestContext?: { requestId?: string; identity?: { sourceIp?: string } } | null;
}

/** The audit record of a call: the event's facts, plus who called, which route answered and how. */
export function auditRecordOf(
  event: CalledEvent,
  call: {
    requestId: string;
    keyId: string | null;
    keyPrefix: string | null;
    customerId?: number | null;
    route: string | null;
    status: number;
    durationMs: number;
    changes?: AuditChange[];
  },
): AuditRecord {
  const userAgent = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'user-agent')?.[1];
  return {
    request_id: call.requestId,
    created_at: new Date().toISOString(),
    key_id: call.keyId,
    key_prefix: call.keyPrefix,
    customer_id: call.customerId ?? null,
    actor: call.customerId ? `customer:${call.customerId}` : call.keyPrefix ? `key:${call.keyPrefix}` : null,
    method: event.httpMethod,
    path: event.path,
    route: call.route,
    status: call.status,
    source_ip: event.requestContext?.identity?.sourceIp ?? null,
    user_agent: userAgent ?? null,
    duration_ms: call.durationMs,
    changes: call.changes ?? [],
  };
}

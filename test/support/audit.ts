import { expect } from 'vitest';
import type { Tenant } from '#shared/auth/principal';
import { tenantKeys } from '#shared/db/keys';
import { countAll } from '#shared/db/query';
import { call } from './http';
import { eventually } from '#test/support/wait';

/**
 * Audit records reach the table through the log shipper (about 100 ms locally): read the log's
 * first page until `count` records match, or give the last reading after a few seconds.
 */
export function auditRecords(key: string, query: string, count: number) {
  return eventually(
    async () => {
      const response = await call('GET', `/v1/audit-logs?${query}`, { key });
      expect(response.status).toBe(200);
      return response;
    },
    (response) => response.body.data.length >= count,
    5000,
  );
}

/** How many audit records a tenant has stored in the range (a direct count, for tenants of the test's own). */
export function countStoredAuditRecords(tenant: Tenant, range: { from: string; to: string }): Promise<number> {
  return countAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': tenantKeys.auditPartition(tenant), ':from': range.from, ':to': `${range.to}~` },
  });
}

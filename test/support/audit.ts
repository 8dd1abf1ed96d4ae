import { expect } from 'vitest';
import { call } from './http';
import { eventually } from '#test/support/wait';

/**
 * Audit records reach the table through the log shipper (about 100 ms locally): read the log
 * until `count` records match, or give the last reading after a few seconds.
 */
export function auditRecords(key: string, query: string, count: number): Promise<any> {
  return eventually(
    async () => {
      const response = await call('GET', `/v1/audit-logs?${query}`, { key });
      expect(response.status).toBe(200);
      return response;
    },
    (response) => response.body.pagination.total >= count,
    5000,
  );
}

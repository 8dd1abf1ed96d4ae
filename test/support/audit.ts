import { expect } from 'vitest';
import { call } from './http';

/**
 * Audit records reach the table through the log shipper (about 100 ms locally): read the log
 * until `count` records match, or fail after a few seconds.
 */
export async function auditRecords(key: string, query: string, count: number): Promise<any> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const response = await call('GET', `/v1/audit-logs?${query}`, { key });
    expect(response.status).toBe(200);
    if (response.body.pagination.total >= count || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

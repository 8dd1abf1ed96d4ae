import { describe, expect, inject, it } from 'vitest';
import { createAccount, createApiKey, revokeApiKey, setAllowedIps } from '#shared/accounts/service';
import { auditRecords } from '#test/support/audit';
import { call } from '#test/support/http';

const { shop } = inject('fixtures');

async function freshAccount() {
  const created = await createAccount({ name: 'Allowlist Shop', plan: 'starter' });
  return { id: created.account.id, test: created.keys.secret_test.key, live: created.keys.secret_live.key };
}

describe('IP allowlists', () => {
  it('refuses loopback for an account restricted to 203.0.113.0/24, and lifting it restores access', async () => {
    const account = await freshAccount();
    await setAllowedIps(account.id, ['203.0.113.0/24']);
    const refused = await call('GET', '/v1/customers', { key: account.test });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ip_not_allowed');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('100');
    await setAllowedIps(account.id, ['203.0.113.0/24', '127.0.0.0/8', '::1/128']);
    expect((await call('GET', '/v1/customers', { key: account.test })).status).toBe(200);
    await setAllowedIps(account.id, []);
    expect((await call('GET', '/v1/customers', { key: account.test })).status).toBe(200);
  });

  it('restricts a single key without touching the account', async () => {
    const account = await freshAccount();
    const key = await createApiKey({ accountId: account.id, mode: 'test', kind: 'secret', scopes: ['customers:read'] });
    await setAllowedIps(account.id, ['2001:db8::/32'], key.key_id);
    expect((await call('GET', '/v1/customers', { key: key.key })).body.error.code).toBe('ip_not_allowed');
    expect((await call('GET', '/v1/customers', { key: account.test })).status).toBe(200);
  });

  it('refuses an invalid CIDR', async () => {
    const account = await freshAccount();
    await expect(setAllowedIps(account.id, ['300.1.1.1/8'])).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

describe('the audit log', () => {
  it('records successful and refused calls with statuses, never the key', async () => {
    const account = await freshAccount();
    const since = new Date(Date.now() - 1000).toISOString();
    await call('GET', '/v1/customers', { key: account.test });
    await call('POST', '/v1/customers', {
      key: account.test,
      body: { name: 'Audited', email: 'audited@example.com' },
      headers: { 'User-Agent': 'audit-test/1.0' },
    });
    await call('GET', '/v1/customers/424242', { key: account.test });
    await setAllowedIps(account.id, ['203.0.113.0/24']);
    await call('GET', '/v1/customers', { key: account.test });
    await setAllowedIps(account.id, []);
    const issued = await createApiKey({ accountId: account.id, mode: 'test', kind: 'secret', scopes: ['customers:read'] });
    await revokeApiKey(account.id, issued.key_id);
    await call('GET', '/v1/customers', { key: issued.key });

    const logs = await auditRecords(account.test, `from=${encodeURIComponent(since)}&path_prefix=/v1/customers`, 5);
    const records = logs.body.data;
    // Newest first (the audit listing calls are recorded too, under /v1/audit-logs).
    expect(records.map((record) => record.status)).toEqual([401, 403, 404, 201, 200]);
    expect(logs.body.pagination).toEqual({ page: 1, per_page: 25, has_more: false, next_cursor: null });
    const created = records.find((record) => record.status === 201);
    expect(created).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      route: 'customers.create',
      user_agent: 'audit-test/1.0',
      customer_id: null,
    });
    expect(created!.key_prefix).toBe(account.test.slice(0, 12));
    expect(created!.source_ip).toMatch(/127\.0\.0\.1|::1/);
    expect(typeof created!.duration_ms).toBe('number');
    expect(records[0]).toMatchObject({ status: 401, key_id: issued.key_id });
    const text = JSON.stringify(logs.body);
    expect(text).not.toContain(account.test);
    expect(text).not.toContain(issued.key);
  });

  it('filters by status class, method and path prefix, and keeps tenants apart', async () => {
    const account = await freshAccount();
    await call('GET', '/v1/customers', { key: account.test });
    await call('GET', '/v1/customers/1', { key: account.test });
    await call('GET', '/v1/customers', { key: account.live });
    await auditRecords(account.test, 'path_prefix=/v1/customers', 2);
    await auditRecords(account.live, 'path_prefix=/v1/customers', 1);
    const notFound = await call('GET', '/v1/audit-logs?status=4xx', { key: account.test });
    expect(notFound.body.data.map((record) => record.path)).toEqual(['/v1/customers/1']);
    const byPrefix = await call('GET', '/v1/audit-logs?path_prefix=/v1/customers/&method=get', { key: account.test });
    expect(byPrefix.body.data).toHaveLength(1);
    const live = await call('GET', '/v1/audit-logs?path_prefix=/v1/customers', { key: account.live });
    expect(live.body.data).toHaveLength(1);
    const foreign = await call('GET', '/v1/audit-logs?path_prefix=/v1/customers', { key: shop.secretTest });
    expect(
      foreign.body.data.every((record) => record.key_prefix === shop.secretTest.slice(0, 12) || record.key_prefix?.startsWith('sk_test_')),
    ).toBe(true);
    expect(JSON.stringify(foreign.body)).not.toContain(account.test.slice(0, 12));
  });

  it('refuses bad filters with 422 and keys without audit:read with 403', async () => {
    for (const query of [
      'status=abc',
      'method=FETCH',
      'from=yesterday',
      'from=2026-01-01T00:00:00Z&to=2025-01-01T00:00:00Z',
      'from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z',
    ]) {
      const response = await call('GET', `/v1/audit-logs?${query}`);
      expect(response.status, query).toBe(422);
    }
    expect((await call('GET', '/v1/audit-logs', { key: shop.customersReadOnly })).body.error.code).toBe('insufficient_scope');
  });
});

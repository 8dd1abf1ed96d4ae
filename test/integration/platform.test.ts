import { describe, expect, inject, it } from 'vitest';
import { routes } from '#shared/routes';
import { createApiKey, revokeApiKey } from '#shared/accounts/service';
import { call } from '#test/support/http';

const { shop } = inject('fixtures');

describe('the local gateway', () => {
  it('answers an unknown path with 404 and the error body', async () => {
    const response = await call('GET', '/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect(response.headers.get('x-request-id')).toBe(response.body.error.request_id);
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await call('PATCH', '/v1/customers/1');
    expect(response.status).toBe(405);
    expect(response.body.error.code).toBe('method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('puts X-Request-Id on every response', async () => {
    const responses = await Promise.all([
      call('GET', '/v1/customers'),
      call('GET', '/v1/customers', { key: null }),
      call('GET', '/v1/openapi.json', { key: null }),
      call('POST', '/v1/customers', { rawBody: '{' }),
    ]);
    for (const response of responses) expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('API keys', () => {
  it('refuses a revoked key at once', async () => {
    const issued = await createApiKey({ accountId: shop.accountId, mode: 'test', kind: 'secret', scopes: ['customers:read'] });
    expect((await call('GET', '/v1/customers', { key: issued.key })).status).toBe(200);
    await revokeApiKey(shop.accountId, issued.key_id);
    const response = await call('GET', '/v1/customers', { key: issued.key });
    expect(response.status).toBe(401);
  });

  it('accepts a write scope for reading the same group', async () => {
    const issued = await createApiKey({ accountId: shop.accountId, mode: 'test', kind: 'secret', scopes: ['customers:write'] });
    expect((await call('GET', '/v1/customers', { key: issued.key })).status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('is served without a key and documents every route of the route table', async () => {
    const response = await call('GET', '/v1/openapi.json', { key: null });
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toBe('3.0.3');
    for (const route of routes) {
      const path = document.paths[route.path]!;
      expect(path, route.path).toBeDefined();
      expect(path[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    }
  });
});

describe('GET /v1/account', () => {
  it("shows the calling key's account, mode, limits and scopes, never the key", async () => {
    const response = await call('GET', '/v1/account');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: shop.accountId,
      mode: 'test',
      key: { kind: 'secret', scopes: ['*'], prefix: shop.secretTest.slice(0, 12) },
    });
    expect(response.body.data.limits.per_minute).toBeGreaterThan(0);
    expect(JSON.stringify(response.body)).not.toContain(shop.secretTest);
    expect((await call('GET', '/v1/account', { key: shop.secretLive })).body.data.mode).toBe('live');
    expect((await call('GET', '/v1/account', { key: shop.customersReadOnly })).status).toBe(200);
  });
});

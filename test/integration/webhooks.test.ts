/** Webhook registrations: CRUD, validation, the SSRF guard, secrets, auth, isolation, limits. */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { eventKinds } from '#shared/events/catalogue';
import { resetConfig } from '#shared/config';
import { ValidationError } from '#shared/errors';
import { WebhookSchema } from '#shared/webhooks/schema';
import { createWebhook } from '#shared/webhooks/service';
import { call } from '#test/support/http';
import { freshShop, register, type Shop } from '#test/support/webhooks';

const { shop: fixtureShop } = inject('fixtures');
let shop: Shop;
/** Another account with no webhooks at all, so any id of `shop` is unknown there. */
let stranger: Shop;

beforeAll(async () => {
  [shop, stranger] = await Promise.all([freshShop('Webhook Registrations'), freshShop('Webhook Stranger')]);
});

const valid = () => ({
  url: 'https://hooks.example.com/print-shop',
  events: ['order.created', 'customer.created'],
  description: 'ERP sync',
});

describe('webhook registrations', () => {
  it('creates a webhook, showing the secret once and a hint afterwards', async () => {
    const created = await call('POST', '/v1/webhooks', { key: shop.secretTest, body: valid() });
    expect(created.status).toBe(201);
    const webhook = WebhookSchema.strict().parse(created.body.data);
    expect(webhook).toMatchObject({
      url: valid().url,
      events: ['order.created', 'customer.created'],
      active: true,
      description: 'ERP sync',
    });
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{48}$/);
    expect(webhook.created_at).toBe(webhook.updated_at);

    const read = await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...webhook, secret: `whsec_…${webhook.secret.slice(-4)}` });

    const list = await call('GET', '/v1/webhooks', { key: shop.secretTest });
    expect(list.status).toBe(200);
    expect(list.body.data.find((item: { id: number }) => item.id === webhook.id)!.secret).toBe(`whsec_…${webhook.secret.slice(-4)}`);
    expect(list.body.pagination).toMatchObject({ page: 1, per_page: 25 });
    expect(JSON.stringify(list.body)).not.toContain(webhook.secret);
  });

  it('lists newest first with pagination', async () => {
    const first = await register(shop.secretTest, valid());
    const second = await register(shop.secretTest, valid());
    const page = await call('GET', '/v1/webhooks?per_page=1', { key: shop.secretTest });
    expect(page.body.data.map((item: { id: number }) => item.id)).toEqual([second.id]);
    expect(page.body.pagination.total).toBeGreaterThanOrEqual(2);
    const next = await call('GET', '/v1/webhooks?per_page=1&page=2', { key: shop.secretTest });
    expect(next.body.data.map((item: { id: number }) => item.id)).toEqual([first.id]);
    expect((await call('GET', '/v1/webhooks?per_page=0', { key: shop.secretTest })).status).toBe(422);
  });

  it('updates only the fields sent; null clears the description', async () => {
    const webhook = await register(shop.secretTest, valid());
    const updated = await call('PUT', `/v1/webhooks/${webhook.id}`, {
      key: shop.secretTest,
      body: { events: ['*'], active: false, description: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: webhook.id, url: valid().url, events: ['*'], active: false, description: null });
    expect(updated.body.data.secret).toBe(`whsec_…${webhook.secret.slice(-4)}`);
    expect(updated.body.data.updated_at >= updated.body.data.created_at).toBe(true);
  });

  it('deletes a webhook and says what was deleted', async () => {
    const webhook = await register(shop.secretTest, valid());
    const deleted = await call('DELETE', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: webhook.id, deleted: true, url: valid().url });
    expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest })).status).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest })).status).toBe(404);
  });

  it('rotates the secret: the new one is shown once, reads show its hint', async () => {
    const webhook = await register(shop.secretTest, valid());
    const rotated = await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key: shop.secretTest });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(webhook.secret);
    const read = await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest });
    expect(read.body.data.secret).toBe(`whsec_…${rotated.body.data.secret.slice(-4)}`);
  });
});

describe('webhook validation', () => {
  it('requires url and events and refuses unknown fields', async () => {
    const response = await call('POST', '/v1/webhooks', { key: shop.secretTest, body: { secret: 'mine' } });
    expect(response.status).toBe(422);
    expect(response.body.error.details!.map((detail: { field: string }) => detail.field).sort()).toEqual(['events', 'secret', 'url']);
  });

  it('refuses unknown event kinds with 422 listing the valid ones', async () => {
    const response = await call('POST', '/v1/webhooks', {
      key: shop.secretTest,
      body: { ...valid(), events: ['order.created', 'order.exploded'] },
    });
    expect(response.status).toBe(422);
    const [detail] = response.body.error.details!;
    expect(detail!.field).toBe('events.1');
    expect(detail!.message).toContain('"order.exploded"');
    for (const kind of ['*', ...eventKinds]) expect(detail!.message).toContain(kind);
  });

  it('refuses "*" mixed with kinds, and an empty list', async () => {
    for (const events of [['*', 'order.created'], []]) {
      const response = await call('POST', '/v1/webhooks', { key: shop.secretTest, body: { ...valid(), events } });
      expect(response.status, JSON.stringify(events)).toBe(422);
      expect(response.body.error.details![0]!.field).toBe('events');
    }
  });

  it.each([
    'https://10.0.0.5/hook',
    'https://169.254.169.254/',
    'https://[::1]/',
    'https://[::ffff:169.254.169.254]/',
    'https://192.168.0.10/hook',
    'https://100.64.1.1/',
    'https://localhost.localhost/',
    'ftp://example.com/',
  ])('refuses %s with 422 and writes nothing', async (url) => {
    const before = (await call('GET', '/v1/webhooks?per_page=100', { key: shop.secretTest })).body.pagination.total;
    const response = await call('POST', '/v1/webhooks', { key: shop.secretTest, body: { ...valid(), url } });
    expect(response.status).toBe(422);
    expect(response.body.error.details![0]!.field).toBe('url');
    expect((await call('GET', '/v1/webhooks?per_page=100', { key: shop.secretTest })).body.pagination.total).toBe(before);
  });

  it('refuses an unsafe URL on update and keeps the old one', async () => {
    const webhook = await register(shop.secretTest, valid());
    const response = await call('PUT', `/v1/webhooks/${webhook.id}`, {
      key: shop.secretTest,
      body: { url: 'https://169.254.169.254/latest' },
    });
    expect(response.status).toBe(422);
    expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest })).body.data.url).toBe(valid().url);
  });

  it('refuses http:// and loopback outside local mode (as on every AWS stage)', async () => {
    const previous = process.env.LOCAL_MODE;
    process.env.LOCAL_MODE = 'false';
    resetConfig();
    try {
      for (const url of ['http://hooks.example.com/x', 'http://127.0.0.1:4000/x', 'https://127.0.0.1/x', 'http://localhost:4000/x']) {
        await expect(createWebhook(shop.tenant, { url, events: ['order.created'], active: true }), url).rejects.toBeInstanceOf(
          ValidationError,
        );
      }
    } finally {
      process.env.LOCAL_MODE = previous;
      resetConfig();
    }
  });

  it('allows http://127.0.0.1:<port> and localhost receivers in local mode', async () => {
    expect((await register(shop.secretTest, { url: 'http://127.0.0.1:9/x', events: ['*'] })).url).toBe('http://127.0.0.1:9/x');
    expect((await register(shop.secretTest, { url: 'http://localhost:9/x', events: ['*'] })).url).toBe('http://localhost:9/x');
  });

  it('refuses plain http:// to any other host in local mode too (422, as on AWS)', async () => {
    for (const url of ['http://example.com/hook', 'http://hooks.example.com:8080/x']) {
      const response = await call('POST', '/v1/webhooks', { key: shop.secretTest, body: { url, events: ['*'] } });
      expect(response.status, url).toBe(422);
      expect(response.body.error.details).toEqual([{ field: 'url', message: expect.stringMatching(/^must use https/) }]);
    }
  });
});

describe('webhook access', () => {
  it('needs a key (401) with webhooks scopes (403)', async () => {
    expect((await call('GET', '/v1/webhooks', { key: null })).status).toBe(401);
    const readOnly = await call('GET', '/v1/webhooks', { key: fixtureShop.customersReadOnly });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toMatchObject({ code: 'insufficient_scope' });
    expect(readOnly.body.error.message).toContain('webhooks:read');
    expect((await call('POST', '/v1/webhooks', { key: fixtureShop.publishableTest, body: valid() })).status).toBe(403);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    expect((await call('GET', '/v1/webhooks/999999', { key: shop.secretTest })).status).toBe(404);
    expect((await call('GET', '/v1/webhooks/abc', { key: shop.secretTest })).status).toBe(404);
    expect((await call('PUT', '/v1/webhooks/999999', { key: shop.secretTest, body: { active: false } })).status).toBe(404);
    expect((await call('POST', '/v1/webhooks/999999/rotate-secret', { key: shop.secretTest })).status).toBe(404);
    expect((await call('POST', '/v1/webhooks/999999/test', { key: shop.secretTest })).status).toBe(404);
    expect((await call('GET', '/v1/webhooks/999999/deliveries', { key: shop.secretTest })).status).toBe(404);
    const webhook = await register(shop.secretTest, valid());
    expect((await call('GET', `/v1/webhooks/${webhook.id}/deliveries/wh_notadeliveryid`, { key: shop.secretTest })).status).toBe(404);
    expect((await call('GET', `/v1/webhooks/${webhook.id}/deliveries/wh_000000000000000000000000`, { key: shop.secretTest })).status).toBe(
      404,
    );
  });

  it('keeps accounts and modes apart', async () => {
    const webhook = await register(shop.secretTest, valid());
    for (const key of [shop.secretLive, stranger.secretTest]) {
      expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key })).status).toBe(404);
      expect((await call('PUT', `/v1/webhooks/${webhook.id}`, { key, body: { active: false } })).status).toBe(404);
      expect((await call('DELETE', `/v1/webhooks/${webhook.id}`, { key })).status).toBe(404);
      expect((await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key })).status).toBe(404);
    }
    expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest })).body.data.active).toBe(true);
  });

  it('caps an account at 20 webhooks per mode (409), counted in the database', async () => {
    const small = await freshShop('Webhook Limit');
    const created = await Promise.all(Array.from({ length: 20 }, () => register(small.secretTest, valid())));
    const over = await call('POST', '/v1/webhooks', { key: small.secretTest, body: valid() });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('conflict');
    // The other mode has its own 20.
    expect((await call('POST', '/v1/webhooks', { key: small.secretLive, body: valid() })).status).toBe(201);
    await call('DELETE', `/v1/webhooks/${created[0]!.id}`, { key: small.secretTest });
    expect((await call('POST', '/v1/webhooks', { key: small.secretTest, body: valid() })).status).toBe(201);
  });
});

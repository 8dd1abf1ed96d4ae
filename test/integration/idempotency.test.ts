import { describe, expect, inject, it } from 'vitest';
import { call, uniqueEmail } from '#test/support/http';
import { businessCards } from '#test/support/products';

const key = () => `idem-${Date.now()}-${Math.random()}`;

describe('Idempotency-Key', () => {
  it('creates one customer for two identical requests and replays the first response', async () => {
    const idempotencyKey = key();
    const body = { name: 'Once Only', email: uniqueEmail('once') };
    const first = await call('POST', '/v1/customers', { body, headers: { 'Idempotency-Key': idempotencyKey } });
    const second = await call('POST', '/v1/customers', { body, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const list = await call('GET', `/v1/customers?email=${encodeURIComponent(body.email)}`);
    expect(list.body.data).toHaveLength(1);
  });

  it('answers 409 idempotency_conflict for the same key with another body or another endpoint', async () => {
    const idempotencyKey = key();
    const created = await call('POST', '/v1/customers', {
      body: { name: 'A', email: uniqueEmail() },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(created.status).toBe(201);
    const other = await call('POST', '/v1/customers', {
      body: { name: 'B', email: uniqueEmail() },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    const elsewhere = await call('POST', `/v1/customers/${created.body.data.id}/addresses`, {
      body: { type: 'billing', name: 'A', line1: 'x', postal_code: '1', city: 'y', country: 'DE' },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(elsewhere.status).toBe(409);
  });

  it('runs the work once when the same request arrives concurrently', async () => {
    const idempotencyKey = key();
    const body = { name: 'Concurrent', email: uniqueEmail('concurrent') };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', '/v1/customers', { body, headers: { 'Idempotency-Key': idempotencyKey } })),
    );
    for (const response of responses) expect([201, 409]).toContain(response.status);
    const conflicts = responses.filter((response) => response.status === 409);
    for (const conflict of conflicts) expect(conflict.body.error.code).toBe('idempotency_conflict');
    const list = await call('GET', `/v1/customers?email=${encodeURIComponent(body.email)}`);
    expect(list.body.data).toHaveLength(1);
  });

  it('does not store failures, so a corrected retry with the same key works', async () => {
    const idempotencyKey = key();
    const email = uniqueEmail('taken');
    await call('POST', '/v1/customers', { body: { name: 'Owner', email } });
    const conflict = await call('POST', '/v1/customers', { body: { name: 'Dup', email }, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('conflict');
    const again = await call('POST', '/v1/customers', { body: { name: 'Dup', email }, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(again.body.error.code).toBe('conflict');
  });

  it('scopes keys per key kind: a publishable key cannot claim the Idempotency-Key of a secret key', async () => {
    const { shop } = inject('fixtures');
    const idempotencyKey = key();
    const product = await call('POST', '/v1/products', { body: businessCards() });
    expect(product.status).toBe(201);
    // A storefront (publishable key, public by design) uses the key first, on a storefront POST…
    const claimed = await call('POST', `/v1/products/${product.body.data.id}/calculate`, {
      key: shop.publishableTest,
      body: { quantity: 500, options: { paper: 'matt300' } },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(claimed.status).toBe(200);
    // …and the merchant's server, sending the same key, is unaffected: its request runs.
    const body = { name: 'Not Pre-Claimed', email: uniqueEmail('preclaim') };
    const merchant = await call('POST', '/v1/customers', { body, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(merchant.status).toBe(201);
    expect(merchant.headers.get('idempotent-replayed')).toBeNull();
    // Each kind still replays its own record.
    const replayed = await call('POST', '/v1/customers', { body, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(merchant.body);
    const storefrontAgain = await call('POST', `/v1/products/${product.body.data.id}/calculate`, {
      key: shop.publishableTest,
      body: { quantity: 500, options: { paper: 'matt300' } },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(storefrontAgain.headers.get('idempotent-replayed')).toBe('true');
  });

  it("keeps a storefront visitor's records apart from another visitor's with the same publishable key: neither replayed nor blocked", async () => {
    const { shop } = inject('fixtures');
    const idempotencyKey = key();
    const product = await call('POST', '/v1/products', { body: businessCards() });
    expect(product.status).toBe(201);
    const calculate = (quantity: number, from: string) =>
      call('POST', `/v1/products/${product.body.data.id}/calculate`, {
        key: shop.publishableTest,
        body: { quantity, options: { paper: 'matt300' } },
        headers: { 'Idempotency-Key': idempotencyKey },
        from,
      });
    const first = await calculate(500, '127.0.0.1');
    expect(first.status).toBe(200);
    // Another visitor (another address) with the same key: another request is not a conflict…
    const other = await calculate(1000, '127.0.0.2');
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.data).not.toEqual(first.body.data);
    // …and the same request is their own, not a replay of the first visitor's answer.
    const same = await calculate(500, '127.0.0.3');
    expect(same.status).toBe(200);
    expect(same.headers.get('idempotent-replayed')).toBeNull();
    // Each visitor still replays their own.
    const again = await calculate(500, '127.0.0.1');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await calculate(1000, '127.0.0.2')).headers.get('idempotent-replayed')).toBe('true');
    expect((await calculate(1000, '127.0.0.1')).status).toBe(409);
  });

  it('refuses a malformed key with 422', async () => {
    const response = await call('POST', '/v1/customers', {
      body: { name: 'A', email: uniqueEmail() },
      headers: { 'Idempotency-Key': 'x'.repeat(256) },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details![0]!.field).toBe('Idempotency-Key');
  });
});

describe('Idempotency-Key on secret-bearing answers', () => {
  it('shows a new webhook secret once: a replay shows only its hint', async () => {
    const idempotencyKey = key();
    const body = { url: 'http://127.0.0.1:9/hook', events: ['customer.created'] };
    const first = await call('POST', '/v1/webhooks', { body, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(first.status).toBe(201);
    expect(first.body.data.secret).toMatch(/^whsec_/);
    expect(first.body.data.secret).not.toContain('…');
    const replay = await call('POST', '/v1/webhooks', { body, headers: { 'Idempotency-Key': idempotencyKey } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(replay.body.data.secret).not.toBe(first.body.data.secret);
    expect(replay.body.data.secret).toContain('…');
    await call('DELETE', `/v1/webhooks/${first.body.data.id}`);
  });
});

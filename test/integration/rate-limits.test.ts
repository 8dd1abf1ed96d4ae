import { describe, expect, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { publishablePerClient } from '#shared/accounts/plans';
import type { Quota } from '#shared/limits/quota';
import { consumeRequest, createRateLimiter, type RateDecision } from '#shared/limits/rate-limit';
import { call } from '#test/support/http';

async function starterAccount() {
  const created = await createAccount({ name: 'Starter Shop', plan: 'starter' });
  return {
    id: created.account.id,
    test: created.keys.secret_test.key,
    live: created.keys.secret_live.key,
    publishableTest: created.keys.publishable_test.key,
    publishableLive: created.keys.publishable_live.key,
  };
}

let tenants = 0;
/** A quota of its own (a fresh account id), counted in DynamoDB Local like any other. */
const freshQuota = (perMinute: number, perHour?: number): Quota => ({
  tenant: { accountId: `acct_quota_${Date.now()}_${tenants++}`, mode: 'test' },
  holder: { kind: 'account' },
  limits: { perMinute, ...(perHour ? { perHour } : {}) },
});

/** A fixed moment early in a minute, so a burst never straddles a window. */
const T0 = Date.UTC(2026, 0, 1, 10, 0, 5);

/** Starts a burst early in a minute window so it cannot straddle a reset. */
async function atStartOfWindow() {
  const second = new Date().getUTCSeconds();
  if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

const remainingOf = (response: { headers: Headers }) => Number(response.headers.get('x-ratelimit-remaining'));

describe('rate limits', () => {
  it('serves 100 parallel requests of a starter account in one minute, none refused early, and refuses the 101st', async () => {
    const account = await starterAccount();
    await atStartOfWindow();
    const burst = await Promise.all(Array.from({ length: 100 }, () => call('GET', '/v1/customers', { key: account.test })));
    expect(burst.map((response) => response.status)).toEqual(Array.from({ length: 100 }, () => 200));
    expect(Math.min(...burst.map(remainingOf))).toBe(0);
    const refused = await call('GET', '/v1/customers', { key: account.test });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('counts a starter account down from 100 and refuses the 101st with 429 and Retry-After', async () => {
    const account = await starterAccount();
    await atStartOfWindow();
    const remaining: number[] = [];
    for (let i = 0; i < 100; i++) {
      const response = await call('GET', '/v1/customers', { key: account.test });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('100');
      remaining.push(remainingOf(response));
    }
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));

    const refused = await call('POST', '/v1/customers', { key: account.test, body: { name: 'Too Many', email: 'too-many@example.com' } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'rate_limited' } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(remainingOf(refused)).toBe(0);
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset % 60).toBe(0);
    expect(reset - Date.now() / 1000).toBeLessThanOrEqual(60);
    // The refused request changed nothing.
    const live = await call('GET', '/v1/customers?email=too-many%40example.com', { key: account.live });
    expect(live.status).toBe(200);
    expect(live.body.data).toEqual([]);
  });

  it('lets exactly 100 of 150 parallel requests through, 20 at a time', async () => {
    const account = await starterAccount();
    await atStartOfWindow();
    const statuses: number[] = [];
    for (let batch = 0; batch < 150 / 20 + 1; batch++) {
      const size = Math.min(20, 150 - batch * 20);
      if (size <= 0) break;
      const responses = await Promise.all(Array.from({ length: size }, () => call('GET', '/v1/customers', { key: account.test })));
      for (const response of responses) {
        statuses.push(response.status);
        expect(remainingOf(response)).toBeGreaterThanOrEqual(0);
      }
    }
    expect(statuses).toHaveLength(150);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
  });

  it('counts test and live keys and different accounts separately', async () => {
    const a = await starterAccount();
    const b = await starterAccount();
    await atStartOfWindow();
    const first = await call('GET', '/v1/customers', { key: a.test });
    expect(remainingOf(first)).toBe(99);
    expect(remainingOf(await call('GET', '/v1/customers', { key: a.live }))).toBe(99);
    expect(remainingOf(await call('GET', '/v1/customers', { key: b.test }))).toBe(99);
    expect(remainingOf(await call('GET', '/v1/customers', { key: a.test }))).toBe(98);
  });

  it('puts the headers on errors once the key is known', async () => {
    const account = await starterAccount();
    for (const response of [
      await call('GET', '/v1/customers/999999', { key: account.test }),
      await call('POST', '/v1/customers', { key: account.test, body: { email: 'x' } }),
    ]) {
      expect([404, 422]).toContain(response.status);
      expect(response.headers.get('x-ratelimit-limit')).toBe('100');
      expect(response.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(response.headers.get('x-ratelimit-reset')).not.toBeNull();
    }
  });

  it('opens a new window after the reset and enforces an hourly cap', async () => {
    const quota = freshQuota(2, 3);
    const t0 = T0;
    expect((await consumeRequest(quota, t0)).allowed).toBe(true);
    expect((await consumeRequest(quota, t0 + 1000)).allowed).toBe(true);
    const refused = await consumeRequest(quota, t0 + 2000);
    expect(refused).toMatchObject({ allowed: false, retryAfter: 53, state: { remaining: 0 } });
    const nextMinute = await consumeRequest(quota, t0 + 60_000);
    expect(nextMinute).toMatchObject({ allowed: true, state: { remaining: 0, limit: 3 } });
    // The hour is used up: refused, and the minute slot it took is given back.
    const hourly = await consumeRequest(quota, t0 + 61_000);
    expect(hourly).toMatchObject({ allowed: false, state: { limit: 3, remaining: 0 } });
    expect(hourly.allowed === false && hourly.retryAfter).toBe(3600 - 66);
    const nextHour = await consumeRequest(quota, t0 + 3600_000);
    expect(nextHour.allowed).toBe(true);
  });
});

describe('a quota shared by many Lambda instances (separate limiter objects, one DynamoDB Local)', () => {
  /** Sends `counts[i]` requests to instance i, all at once; the decisions in the order sent. */
  async function burst(quota: Quota, counts: number[], at = T0): Promise<RateDecision[]> {
    const instances = counts.map(() => createRateLimiter());
    return Promise.all(counts.flatMap((count, i) => Array.from({ length: count }, () => instances[i]!.consume(quota, at))));
  }
  const allowed = (decisions: RateDecision[]) => decisions.filter((decision) => decision.allowed).length;

  it('serves exactly 100 of a quota of 100 spread unevenly over 20 instances, and refuses the 101st with a Retry-After', async () => {
    const quota = freshQuota(100);
    // Uneven on purpose: busy instances next to ones that see a single request or none.
    const counts = [20, 15, 10, 10, 8, 7, 6, 5, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1, 0, 0];
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(100);
    const instances = counts.map(() => createRateLimiter());
    const decisions = await Promise.all(
      counts.flatMap((count, i) => Array.from({ length: count }, () => instances[i]!.consume(quota, T0))),
    );
    expect(allowed(decisions)).toBe(100);
    for (const instance of [instances[0]!, instances[13]!, instances[19]!]) {
      const refused = await instance.consume(quota, T0 + 1000);
      expect(refused.allowed).toBe(false);
      expect(refused).toMatchObject({ retryAfter: 54, state: { limit: 100, remaining: 0 } });
    }
  });

  it('never lets more than the limit through, however the requests are spread', async () => {
    const quota = freshQuota(100);
    // 150 requests over 20 instances, spread by a fixed pseudo-random sequence.
    const counts = Array<number>(20).fill(0);
    let seed = 7;
    for (let i = 0; i < 150; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      counts[seed % 20]!++;
    }
    const decisions = await burst(quota, counts);
    expect(allowed(decisions)).toBe(100);
    for (const decision of decisions.filter((candidate) => !candidate.allowed)) {
      expect(decision).toMatchObject({ retryAfter: 55, state: { remaining: 0 } });
    }
  });

  it('serves a burst that reaches 100 instances with one request each in full (each first reservation is only what it needs)', async () => {
    const quota = freshQuota(100);
    const decisions = await burst(quota, Array<number>(100).fill(1));
    expect(allowed(decisions)).toBe(100);
    const more = await burst(quota, [1, 1, 1]);
    expect(allowed(more)).toBe(0);
  });

  it('keeps DynamoDB calls low for a busy instance: far fewer reservations than requests', async () => {
    const quota = freshQuota(1_000_000);
    const limiter = createRateLimiter();
    let reservations = 0;
    const { dynamo } = await import('#shared/clients/dynamodb');
    const client = dynamo();
    const send = client.send.bind(client);
    const spy = (command: { input?: { Key?: { pk?: string } } }, ...rest: unknown[]) => {
      if (String(command.input?.Key?.pk ?? '').includes(quota.tenant.accountId)) reservations++;
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    };
    (client as { send: unknown }).send = spy;
    try {
      for (let i = 0; i < 300; i++) expect((await limiter.consume(quota, T0)).allowed).toBe(true);
    } finally {
      (client as { send: unknown }).send = send;
    }
    // 1, 2, 4, 8, 16, 32, then blocks of 50: 11 reservations for 300 requests one after another.
    expect(reservations).toBe(11);
  });
});

describe('publishable keys (storefronts)', () => {
  it('count per key and client apart from the secret keys: 150 storefront requests leave the merchant answered', async () => {
    const account = await starterAccount();
    await atStartOfWindow();
    const perClient = publishablePerClient(100);
    expect(perClient).toBe(60);
    const statuses: number[] = [];
    for (let batch = 0; batch < 150; batch += 25) {
      const responses = await Promise.all(Array.from({ length: 25 }, () => call('GET', '/v1/products', { key: account.publishableLive })));
      for (const response of responses) {
        statuses.push(response.status);
        expect(response.headers.get('x-ratelimit-limit')).toBe(String(perClient));
      }
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(perClient);
    expect(statuses.filter((status) => status === 429)).toHaveLength(150 - perClient);
    // The merchant's live secret key has its whole quota; its POST goes through.
    const merchant = await call('GET', '/v1/customers', { key: account.live });
    expect(merchant.status).toBe(200);
    expect(merchant.headers.get('x-ratelimit-limit')).toBe('100');
    expect(remainingOf(merchant)).toBe(99);
    const order = await call('POST', '/v1/customers', {
      key: account.live,
      body: { name: 'Merchant', email: `m.${Date.now()}@example.com` },
    });
    expect(order.status).toBe(201);
    // Test-mode storefront traffic does not lower live's either.
    expect((await call('GET', '/v1/products', { key: account.publishableTest })).status).toBe(200);
    expect(remainingOf(await call('GET', '/v1/customers', { key: account.live }))).toBe(97);
  });

  it('give each client address (IPv6: each /64) a quota of its own', async () => {
    const tenant = { accountId: `acct_storefront_${Date.now()}`, mode: 'live' as const };
    const client = (address: string): Quota => ({
      tenant,
      holder: { kind: 'publishable', keyId: 'key_a', client: address },
      limits: { perMinute: 2 },
    });
    const first = client('203.0.113.7');
    expect((await consumeRequest(first, T0)).allowed).toBe(true);
    expect((await consumeRequest(first, T0)).allowed).toBe(true);
    expect((await consumeRequest(first, T0)).allowed).toBe(false);
    expect((await consumeRequest(client('203.0.113.8'), T0)).allowed).toBe(true);
    // Another publishable key of the same account from the same address: its own quota too.
    expect((await consumeRequest({ ...first, holder: { kind: 'publishable', keyId: 'key_b', client: '203.0.113.7' } }, T0)).allowed).toBe(
      true,
    );
    // The secret keys' quota of the tenant is untouched.
    expect(await consumeRequest({ tenant, holder: { kind: 'account' }, limits: { perMinute: 2 } }, T0)).toMatchObject({
      allowed: true,
      state: { remaining: 1 },
    });
  });
});

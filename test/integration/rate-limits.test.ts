import { describe, expect, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { consumeRequest } from '#shared/limits/rate-limit';
import { call } from '#test/support/http';

async function starterAccount() {
  const created = await createAccount({ name: 'Starter Shop', plan: 'starter' });
  return { id: created.account.id, test: created.keys.secret_test.key, live: created.keys.secret_live.key };
}

/** Starts a burst early in a minute window so it cannot straddle a reset. */
async function atStartOfWindow() {
  const second = new Date().getUTCSeconds();
  if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

const remainingOf = (response: { headers: Headers }) => Number(response.headers.get('x-ratelimit-remaining'));

describe('rate limits', () => {
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
    const tenant = { accountId: `acct_window_${Date.now()}`, mode: 'test' as const };
    const t0 = Date.UTC(2026, 0, 1, 10, 0, 5);
    const limits = { perMinute: 2, perHour: 3 };
    expect((await consumeRequest(tenant, limits, t0)).allowed).toBe(true);
    expect((await consumeRequest(tenant, limits, t0 + 1000)).allowed).toBe(true);
    const refused = await consumeRequest(tenant, limits, t0 + 2000);
    expect(refused).toMatchObject({ allowed: false, retryAfter: 53, state: { remaining: 0 } });
    const nextMinute = await consumeRequest(tenant, limits, t0 + 60_000);
    expect(nextMinute).toMatchObject({ allowed: true, state: { remaining: 0, limit: 3 } });
    // The hour is used up: refused, and the minute slot it took is given back.
    const hourly = await consumeRequest(tenant, limits, t0 + 61_000);
    expect(hourly).toMatchObject({ allowed: false, state: { limit: 3, remaining: 0 } });
    expect(hourly.allowed === false && hourly.retryAfter).toBe(3600 - 66);
    const nextHour = await consumeRequest(tenant, limits, t0 + 3600_000);
    expect(nextHour.allowed).toBe(true);
  });
});

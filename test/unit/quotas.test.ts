/**
 * Quotas and their sizing, pure: who holds a request's quota (shared/limits/quota.ts), how many
 * tokens an instance reserves (reservationSize), and the gateway backstop sized from the plans
 * (shared/accounts/plans.ts) — checked against a token bucket like API Gateway's.
 */
import { describe, expect, it } from 'vitest';
import {
  gatewayFigure,
  plans,
  publishablePerClient,
  tierFor,
  USAGE_KEY_SLOTS,
  USAGE_TIERS,
  usageKeyTiers,
  usagePlanThrottle,
} from '#shared/accounts/plans';
import type { Principal } from '#shared/auth/principal';
import { accountQuota, clientOf, storefrontQuota } from '#shared/limits/quota';
import { MAX_BLOCK, reservationSize } from '#shared/limits/rate-limit';

const principal = (overrides: Partial<Principal> = {}): Principal => ({
  accountId: 'acct_a',
  mode: 'live',
  keyId: 'key_1',
  keyPrefix: 'pk_live_abcd',
  kind: 'secret',
  scopes: ['*'],
  plan: 'starter',
  limits: { perMinute: 100 },
  accountAllowedIps: [],
  keyAllowedIps: [],
  ...overrides,
});

describe('the quota a request spends', () => {
  it('is the account and mode for secret keys, whatever the address and the route', () => {
    const expected = { tenant: { accountId: 'acct_a', mode: 'live' }, holder: { kind: 'account' }, limits: { perMinute: 100 } };
    expect(accountQuota(principal(), '203.0.113.7')).toEqual(expected);
    expect(storefrontQuota(principal(), '203.0.113.7')).toEqual(expected);
  });

  it('is the key and the client address for publishable keys on storefront routes', () => {
    const quota = storefrontQuota(principal({ kind: 'publishable', limits: { perMinute: 60 } }), '203.0.113.7');
    expect(quota).toEqual({
      tenant: { accountId: 'acct_a', mode: 'live' },
      holder: { kind: 'publishable', keyId: 'key_1', client: '203.0.113.7' },
      limits: { perMinute: 60 },
    });
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(clientOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:DB8:0001:0002:ffff::9')).toBe('2001:db8:1:2::/64');
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8::1.2.3.4')).toBe('2001:db8:0:0::/64');
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf(undefined)).toBe('unknown');
    expect(clientOf('not an address')).toBe('unknown');
  });
});

describe('reservation sizes', () => {
  it('take exactly the waiting requests on an instance’s first reservation of a window', () => {
    expect(reservationSize({ limit: 1000, hits: 0, demand: 1, lastBlock: 0 })).toBe(1);
    expect(reservationSize({ limit: 1000, hits: 0, demand: 7, lastBlock: 0 })).toBe(7);
  });

  it('grow a head start by doubling for an instance that used its block, up to a tenth of what remains and MAX_BLOCK', () => {
    expect(reservationSize({ limit: 1000, hits: 10, demand: 1, lastBlock: 1 })).toBe(2);
    expect(reservationSize({ limit: 1000, hits: 10, demand: 1, lastBlock: 16 })).toBe(32);
    expect(reservationSize({ limit: 100_000, hits: 0, demand: 1, lastBlock: 40 })).toBe(MAX_BLOCK);
    expect(reservationSize({ limit: 1000, hits: 900, demand: 1, lastBlock: 40 })).toBe(10); // 100 left → 10
  });

  it('shrink toward one token (the demand) as the window fills, and never exceed what remains', () => {
    expect(reservationSize({ limit: 100, hits: 85, demand: 1, lastBlock: 4 })).toBe(1); // 15 left → 1
    expect(reservationSize({ limit: 100, hits: 97, demand: 5, lastBlock: 4 })).toBe(3);
    expect(reservationSize({ limit: 100, hits: 100, demand: 1, lastBlock: 4 })).toBe(0);
  });

  it('strand at most a tenth of what remained with any instance that stops getting requests', () => {
    for (let hits = 0; hits < 1000; hits += 37) {
      for (const lastBlock of [1, 2, 8, 50]) {
        const size = reservationSize({ limit: 1000, hits, demand: 1, lastBlock });
        expect(size - 1).toBeLessThanOrEqual(Math.max(0, Math.floor((1000 - hits) / 10)));
      }
    }
  });
});

/** API Gateway's throttle: a token bucket of `burstLimit` refilling at `rateLimit` per second, starting full. */
function admits(throttle: { rateLimit: number; burstLimit: number }, arrivals: number[]): boolean {
  let tokens = throttle.burstLimit;
  let last = 0;
  for (const at of arrivals) {
    tokens = Math.min(throttle.burstLimit, tokens + ((at - last) / 1000) * throttle.rateLimit);
    last = at;
    if (tokens < 1) return false;
    tokens -= 1;
  }
  return true;
}

describe('the gateway backstop', () => {
  it('admits a burst of the whole per-minute figure at once, and again at the start of the next minute', () => {
    for (const figure of [...Object.values(plans), ...USAGE_TIERS]) {
      const throttle = usagePlanThrottle(tierFor(figure) as number);
      const endOfMinute = Array<number>(figure).fill(59_999);
      const startOfNext = Array<number>(figure).fill(60_000);
      const thirdMinute = Array<number>(figure).fill(120_000);
      expect(admits(throttle, [...endOfMinute, ...startOfNext, ...thirdMinute]), String(figure)).toBe(true);
    }
  });

  it('admits every minute at the figure spread any way, for an hour', () => {
    const figure = plans.starter;
    const throttle = usagePlanThrottle(tierFor(figure) as number);
    let seed = 3;
    const arrivals: number[] = [];
    for (let minute = 0; minute < 60; minute++) {
      const times = Array.from({ length: figure }, () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        // Alternately crowd the end and the start of minutes.
        const offset = minute % 2 ? 59_000 + (seed % 1000) : seed % 1000;
        return minute * 60_000 + offset;
      });
      arrivals.push(...times.sort((a, b) => a - b));
    }
    expect(admits(throttle, arrivals)).toBe(true);
  });

  it('refuses a flood well beyond the figure (it is a backstop, not a hole)', () => {
    const throttle = usagePlanThrottle(100);
    expect(admits(throttle, Array<number>(1000).fill(0))).toBe(false);
  });

  it('places each of the four usage keys in a tier that holds its mode and kind’s figure, custom figures included', () => {
    expect(USAGE_KEY_SLOTS).toHaveLength(4);
    expect(usageKeyTiers(plans.starter).map(({ slot, tier }) => `${slot.mode}/${slot.kind}:${tier}`)).toEqual([
      'test/secret:100',
      'test/publishable:1000',
      'live/secret:100',
      'live/publishable:1000',
    ]);
    for (const perMinute of [1, 60, 100, 101, 499, 2000, 7777, 50_000, 50_001, 1_000_000]) {
      for (const { slot, tier } of usageKeyTiers(perMinute)) {
        const figure = gatewayFigure(perMinute, slot.kind);
        if (tier === 'unthrottled') expect(figure).toBeGreaterThan(USAGE_TIERS.at(-1)!);
        else expect(tier).toBeGreaterThanOrEqual(figure);
      }
    }
  });

  it('gives publishable keys a per-client figure from the plan, at least 60 a minute', () => {
    expect(publishablePerClient(plans.starter)).toBe(60);
    expect(publishablePerClient(plans.professional)).toBe(100);
    expect(publishablePerClient(plans.enterprise)).toBe(200);
    expect(publishablePerClient(2000)).toBe(400);
  });
});

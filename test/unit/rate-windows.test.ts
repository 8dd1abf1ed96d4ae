import { describe, expect, it } from 'vitest';
import { usagePlanThrottle } from '#shared/accounts/plans';
import { rateLimitHeaders, retryAfterSeconds, windowAt } from '#shared/limits/windows';

describe('rate-limit windows', () => {
  it('aligns minute and hour windows to the clock', () => {
    const at = Date.UTC(2026, 10, 21, 10, 15, 42, 500);
    expect(windowAt('minute', at)).toEqual({ kind: 'minute', start: at / 1000 - 42.5, reset: at / 1000 - 42.5 + 60 });
    expect(windowAt('hour', at).reset).toBe(Date.UTC(2026, 10, 21, 11) / 1000);
  });

  it('says Retry-After in whole seconds between 1 and the window length', () => {
    const start = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(retryAfterSeconds(windowAt('minute', start), start)).toBe(60);
    expect(retryAfterSeconds(windowAt('minute', start + 59_999), start + 59_999)).toBe(1);
    expect(retryAfterSeconds(windowAt('minute', start + 30_200), start + 30_200)).toBe(30);
  });

  it('never reports a negative remaining count', () => {
    expect(rateLimitHeaders({ limit: 100, remaining: -3, reset: 60 })).toEqual({
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '60',
    });
  });

  it('derives the gateway backstop throttle from the per-minute figure: a burst of two whole minutes passes', () => {
    expect(usagePlanThrottle(100)).toEqual({ rateLimit: 4, burstLimit: 200 });
    expect(usagePlanThrottle(500)).toEqual({ rateLimit: 17, burstLimit: 1000 });
    expect(usagePlanThrottle(1000).rateLimit).toBeGreaterThanOrEqual(1000 / 60);
  });
});

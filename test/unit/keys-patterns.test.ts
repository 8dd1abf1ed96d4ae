import { describe, expect, it } from 'vitest';
import { createdSortKey, tenantKeys, tenantPrefix } from '#shared/db/keys';

const test = { accountId: 'acct_a', mode: 'test' as const };
const live = { accountId: 'acct_a', mode: 'live' as const };

describe('key patterns', () => {
  it('start every tenant key with the account and the mode', () => {
    expect(tenantPrefix(test)).toBe('T#acct_a#test');
    expect(tenantKeys.customer(test, 1).pk.startsWith('T#acct_a#test#')).toBe(true);
    expect(tenantKeys.customer(test, 1).pk).not.toBe(tenantKeys.customer(live, 1).pk);
    expect(tenantKeys.customerEmail(test, 'A@B.de').pk).toBe(tenantKeys.customerEmail(test, 'a@b.de').pk);
  });

  it('keeps addresses in their customer partition, sorted numerically', () => {
    const a = tenantKeys.address(test, 5, 2);
    const b = tenantKeys.address(test, 5, 10);
    expect(a.pk).toBe(tenantKeys.customer(test, 5).pk);
    expect(a.sk < b.sk).toBe(true);
  });

  it('sorts creation keys by time, then id', () => {
    expect(createdSortKey('2026-01-01T00:00:00.000Z', 9) < createdSortKey('2026-01-01T00:00:00.000Z', 10)).toBe(true);
    expect(createdSortKey('2026-01-01T00:00:00.000Z', 99) < createdSortKey('2026-01-02T00:00:00.000Z', 1)).toBe(true);
  });
});

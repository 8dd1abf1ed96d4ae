import { describe, expect, it } from 'vitest';
import { invalidCidrs, ipAllowed, parseCidr } from '#shared/auth/ip-allowlist';

describe('IP allowlists', () => {
  it('allows everyone when the list is empty', () => {
    expect(ipAllowed('198.51.100.7', [])).toBe(true);
    expect(ipAllowed(undefined, [])).toBe(true);
  });

  it('matches IPv4 ranges at their edges', () => {
    const list = ['203.0.113.0/24'];
    expect(ipAllowed('203.0.113.0', list)).toBe(true);
    expect(ipAllowed('203.0.113.255', list)).toBe(true);
    expect(ipAllowed('203.0.112.255', list)).toBe(false);
    expect(ipAllowed('203.0.114.0', list)).toBe(false);
  });

  it('matches IPv6 ranges and single addresses', () => {
    expect(ipAllowed('2001:db8::1', ['2001:db8::/32'])).toBe(true);
    expect(ipAllowed('2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', ['2001:db8::/32'])).toBe(true);
    expect(ipAllowed('2001:db9::', ['2001:db8::/32'])).toBe(false);
    expect(ipAllowed('::1', ['::1'])).toBe(true);
    expect(ipAllowed('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(ipAllowed('127.0.0.2', ['127.0.0.1'])).toBe(false);
  });

  it('matches IPv4-mapped IPv6 addresses against IPv4 ranges', () => {
    expect(ipAllowed('::ffff:203.0.113.9', ['203.0.113.0/24'])).toBe(true);
    expect(ipAllowed('::ffff:198.51.100.1', ['203.0.113.0/24'])).toBe(false);
  });

  it('treats /0 as everything of its family only', () => {
    expect(ipAllowed('8.8.8.8', ['0.0.0.0/0'])).toBe(true);
    expect(ipAllowed('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
  });

  it('never matches a missing or malformed source address', () => {
    expect(ipAllowed(undefined, ['0.0.0.0/0'])).toBe(false);
    expect(ipAllowed('not-an-ip', ['0.0.0.0/0'])).toBe(false);
  });

  it('rejects malformed CIDRs', () => {
    expect(invalidCidrs(['10.0.0.0/8', '2001:db8::/32', '192.0.2.1'])).toEqual([]);
    expect(invalidCidrs(['300.0.0.0/8', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/1', 'abc', '10.0.0.0/x', ''])).toHaveLength(7);
    expect(parseCidr('10.1.2.3')).toEqual({ address: '10.1.2.3', prefix: 32, family: 'ipv4' });
  });
});

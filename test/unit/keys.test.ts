import { describe, expect, it } from 'vitest';
import { bearerToken, generateApiKey, hashApiKey, keyPrefix, parseApiKey } from '#shared/auth/keys';

describe('API keys', () => {
  it('generates keys whose shape tells kind and mode', () => {
    const key = generateApiKey('secret', 'test');
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(parseApiKey(key)).toEqual({ kind: 'secret', mode: 'test' });
    expect(parseApiKey(generateApiKey('publishable', 'live'))).toEqual({ kind: 'publishable', mode: 'live' });
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('secret', 'live')));
    expect(keys.size).toBe(1000);
  });

  it('rejects anything that is not a key', () => {
    for (const value of [
      '',
      'sk_test_short',
      'xk_test_' + 'a'.repeat(32),
      'sk_prod_' + 'a'.repeat(32),
      'sk_test_' + 'a'.repeat(31) + '!',
    ]) {
      expect(parseApiKey(value)).toBeUndefined();
    }
  });

  it('stores a SHA-256 hex hash and shows only a short prefix', () => {
    const key = 'sk_test_' + 'A'.repeat(32);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain('AAAA');
    expect(keyPrefix(key)).toBe('sk_test_AAAA');
  });

  it('reads the bearer token tolerantly', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer   abc  ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

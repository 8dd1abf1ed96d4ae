import { describe, expect, it } from 'vitest';

describe('the LRU cache stand-in of Lambda bundles', () => {
  it('behaves like mnemonist for the methods the SDK endpoint cache uses', async () => {
    const { default: Real } = await import('mnemonist/lru-cache.js');
    const { default: StandIn } = await import('#shared/lambda-stand-ins/lru-cache');
    const real = new Real<string, number>(2);
    const standIn = new StandIn<string, number>(2);
    for (const cache of [real, standIn]) {
      cache.set('a', 1);
      cache.set('b', 2);
      cache.get('a'); // a is now the most recent
      cache.set('c', 3); // evicts b
    }
    for (const key of ['a', 'b', 'c']) {
      expect(standIn.has(key), key).toBe(real.has(key));
      expect(standIn.peek(key), key).toBe(real.peek(key));
    }
    real.clear();
    standIn.clear();
    expect(standIn.has('a')).toBe(real.has('a'));
  });
});

describe('idempotency request hashing', () => {
  it('hashes equal requests equally whatever their key order, and different ones differently', async () => {
    const { canonicalJson } = await import('#shared/http/idempotency');
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});

import { search as realSearch } from '@aws-lambda-powertools/jmespath';
import { describe, expect, it } from 'vitest';
import { search } from '../../infra/lambda-jmespath';

describe('the JMESPath stand-in of Lambda bundles', () => {
  const data = { key: 'abc', request: { route: 'customers.create', path: '/v1/customers', body: { name: 'A', tags: [1, 2] } }, empty: null };

  it('agrees with the real library on the plain paths idempotency uses', () => {
    for (const expression of ['key', 'request', 'request.route', 'request.body', 'request.body.tags', 'missing', 'request.missing.deeper', 'empty']) {
      expect(search(expression, data), expression).toEqual(realSearch(expression, data));
    }
  });

  it('refuses anything but plain paths instead of answering wrongly', () => {
    for (const expression of ['request.body.tags[0]', 'powertools_json(body)', '[key, request]', 'a || b']) {
      expect(() => search(expression, data), expression).toThrow(/plain field paths/);
    }
  });
});

describe('the LRU cache stand-in of Lambda bundles', () => {
  it('behaves like mnemonist for the methods the SDK endpoint cache uses', async () => {
    const { default: Real } = await import('mnemonist/lru-cache.js');
    const { default: StandIn } = await import('../../infra/lambda-lru-cache');
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

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

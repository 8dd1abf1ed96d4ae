/**
 * No input reaches a 500, and inputs are bounded before they cost anything — through the local
 * gateway: malformed percent-encoding, ids beyond 2^53 − 1, pages beyond the bound, unpaired
 * surrogates, `__proto__`, a body of millions of unknown keys, CSV bodies of junk, products too
 * large to store; and an order crossing the stock threshold of the largest product accepted.
 */
import { describe, expect, inject, it } from 'vitest';
import { itemBytes } from '#shared/db/item-size';
import { MAX_PRODUCT_BYTES } from '#shared/products/rules';
import { storedProduct } from '#shared/products/stored';
import { MAX_PAGE } from '#shared/schemas/pagination';
import { TEXT_MESSAGE } from '#shared/schemas/text';
import { call, type ErrorResponse } from '#test/support/http';
import { newCustomer, stockOf } from '#test/support/orders';
import { brochure, createProduct, posterA2 } from '#test/support/products';
import { productRecord } from '#test/support/records';
import { ofKind, storedEvents } from '#test/support/store';

const { api, shop } = inject('fixtures');
const testTenant = { accountId: shop.accountId, mode: 'test' as const };

/** The documented error body with `code`, and X-Request-Id equal to its request_id. */
function expectError(response: ErrorResponse, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)?.slice(0, 500)).toBe(status);
  expect(response.body).toMatchObject({ success: false, error: { code, message: expect.any(String), request_id: expect.any(String) } });
  expect(response.headers.get('x-request-id')).toBe(response.body.error.request_id);
  return response.body.error;
}

describe('paths', () => {
  it('answers malformed percent-encoding with 400 and the error body, before authentication (as API Gateway does)', async () => {
    for (const path of ['/v1/customers/%ff', '/v1/customers/%', '/v1/orders/%E0%A4%A', '/legacy-products/%c3%28']) {
      const error = expectError(await call('GET', path, { key: null }), 400, 'bad_request');
      expect(error.message).toContain('percent-encoded');
      expectError(await call('GET', path), 400, 'bad_request');
    }
  });

  it('refuses ids beyond 2^53 − 1 (404), never rounding them to another id', async () => {
    const error = expectError(await call('GET', '/v1/orders/9007199254740993'), 404, 'not_found');
    expect(error.message).not.toContain('9007199254740992');
    expectError(await call('GET', '/v1/orders?starting_after=9007199254740993'), 422, 'validation_failed');
  });
});

describe('list pages', () => {
  it(`end at ${MAX_PAGE}: page × per_page never reaches DynamoDB's Limit range (a 422, also for a publishable key)`, async () => {
    const response = await call('GET', '/v1/products?page=85899346', { key: shop.publishableTest });
    expect(expectError(response, 422, 'validation_failed').details).toEqual([
      { field: 'page', message: `page must be at most ${MAX_PAGE}` },
    ]);
    expect((await call('GET', `/v1/products?page=${MAX_PAGE}&per_page=100`, { key: shop.publishableTest })).status).toBe(200);
    for (const path of ['/v1/customers', '/v1/orders', '/v1/legacy-products', '/v1/webhooks', '/v1/audit-logs']) {
      expectError(await call('GET', `${path}?page=1000000000000`), 422, 'validation_failed');
    }
  });
});

describe('text', () => {
  it('refuses an unpaired surrogate in a legacy price row or a calculation (422, never a 500 from the key module)', async () => {
    const created = await call('POST', '/v1/legacy-products', {
      body: brochure([{ format: '\ud800', color: '4/4', quantity: 100, pages: 8, price: 1 }]),
    });
    expect(expectError(created, 422, 'validation_failed').details?.[0]?.field).toBe('prices.0.format');
    const product = await call('POST', '/v1/legacy-products', { body: brochure() });
    expect(product.status).toBe(201);
    const quote = await call('POST', `/v1/legacy-products/${product.body.data.id}/calculate`, {
      body: { format: 'A4', color: '\udc00', quantity: 100, pages: 8 },
    });
    expect(expectError(quote, 422, 'validation_failed').details?.[0]?.field).toBe('color');
  });

  it('refuses NUL and control characters in names, and accepts line breaks in notes', async () => {
    const refused = await call('POST', '/v1/customers', { body: { name: 'Anna\u0000', email: 'nul@example.com' } });
    expect(expectError(refused, 422, 'validation_failed').details).toEqual([{ field: 'name', message: TEXT_MESSAGE }]);
    const customer = await newCustomer(shop.secretTest, { notes: 'first line\nsecond line\tindented' });
    expect((customer as { notes?: string }).notes).toBe('first line\nsecond line\tindented');
  });
});

describe('JSON bodies', () => {
  it('refuses __proto__ as the unknown field it is (422 naming it), not as malformed JSON', async () => {
    const response = await call('POST', '/v1/customers', {
      rawBody: '{"name":"A","email":"proto@example.com","__proto__":{"admin":true}}',
    });
    expect(expectError(response, 422, 'validation_failed').details).toEqual([{ field: '__proto__', message: 'Unknown field' }]);
    const nested = await call('POST', `/v1/products`, {
      rawBody: JSON.stringify(posterA2()).replace('{', '{"options":[{"__proto__":{"x":1}}],'),
    });
    expect(expectError(nested, 422, 'validation_failed').details?.[0]?.field).toBe('options.0.__proto__');
  });

  it('answers a 3.5 MB body of unknown keys with a 422 under 64 KB that says how many problems there were', async () => {
    const keys: string[] = [];
    let size = 2;
    for (let index = 0; size < 3.5 * 1024 * 1024; index++) {
      const entry = `"unknown_field_${index}":1`;
      keys.push(entry);
      size += entry.length + 1;
    }
    const raw = `{${keys.join(',')}}`;
    const response = await fetch(`${api}/v1/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${shop.secretTest}`, 'Content-Type': 'application/json' },
      body: raw,
    });
    const text = await response.text();
    expect(response.status).toBe(422);
    expect(Buffer.byteLength(text)).toBeLessThan(64 * 1024);
    const body = JSON.parse(text);
    expect(body.error.details).toHaveLength(50);
    expect(body.error.message).toMatch(new RegExp(`\\(${keys.length + 2} problems; the first 50 are listed\\)$`));
    expect(response.headers.get('x-request-id')).toBe(body.error.request_id);
  });
});

describe('CSV price imports', () => {
  const putCsv = (id: number, csv: string) =>
    call('PUT', `/v1/legacy-products/${id}/prices`, { rawBody: csv, headers: { 'Content-Type': 'text/csv' } });

  // A 4.9 MB body of two-byte lines would be a 7.4 MB Lambda event (JSON escapes every newline),
  // which API Gateway cannot pass to the function: the local gateway answers that 413 too.
  it('answer a 6 MB CSV of junk with 413 before reading it, and one of over a million lines with 422 at the row cap', async () => {
    const product = await call('POST', '/v1/legacy-products', { body: brochure() });
    const id = product.body.data.id as number;
    expectError(await putCsv(id, 'a\n'.repeat(3 * 1024 * 1024)), 413, 'payload_too_large');
    const lines = `format,color,quantity,pages,price\n${'a\n'.repeat(1_200_000)}`;
    const started = Date.now();
    const error = expectError(await putCsv(id, lines), 422, 'validation_failed');
    expect(error.message).toBe('The CSV holds too many prices');
    expect(Date.now() - started).toBeLessThan(15_000);
    // Nothing changed.
    expect((await call('GET', `/v1/legacy-products/${id}`)).body.data.price_count).toBe(5);
  });
});

describe('items within DynamoDB’s 400 KB', () => {
  /** Options of `count` values each, with names of `nameLength` characters. */
  const options = (count: number, nameLength: number) =>
    Array.from({ length: 20 }, (_, o) => ({
      code: `option_${o}`,
      name: `Option ${o}`,
      required: false,
      values: Array.from({ length: count }, (_, v) => ({ code: `value_${v}`, name: `${v}`.padEnd(nameLength, '€'), price_delta: 0.01 })),
    }));

  it('refuses a product too large to store with 422 naming the field (create, and an update that makes it so), never 500', async () => {
    const created = await call('POST', '/v1/products', { body: posterA2({ options: options(50, 100) }) });
    const error = expectError(created, 422, 'validation_failed');
    expect(error.details).toEqual([{ field: 'options', message: expect.stringMatching(/^makes the product \d+ KB .* at most 200 KB$/) }]);
    const product = await createProduct(
      posterA2({ description: '€'.repeat(5000), images: [`https://cdn.example.com/${'a'.repeat(1900)}`] }),
    );
    const updated = await call('PUT', `/v1/products/${product.id}`, { body: { options: options(50, 100) } });
    expect(expectError(updated, 422, 'validation_failed').details?.[0]?.field).toBe('options');
  });

  it('lets an order cross the stock threshold of the largest product accepted: stock.low carries a slim product', async () => {
    // As close to the budget as the option names allow (2 KB to spare).
    const fields = {
      name: 'Large poster',
      description: '€'.repeat(5000),
      min_qty: 1,
      stock: { tracked: true, quantity: 10, low_threshold: 5 },
    };
    const bodyOf = (nameLength: number) => ({ ...posterA2(fields), options: options(50, nameLength) });
    // The server's measure: the larger of the stored item and the JSON view (rules.ts).
    const sizeOf = (nameLength: number) => {
      const record = productRecord({
        ...fields,
        options: options(50, nameLength).map((option) => ({
          ...option,
          default: null,
          values: option.values.map((value) => ({ ...value, price_delta: 1, price_factor: null })),
        })),
      });
      return Math.max(itemBytes(storedProduct.attributes(record, 'put')), Buffer.byteLength(JSON.stringify(storedProduct.view(record))));
    };
    let nameLength = 10;
    while (sizeOf(nameLength + 1) < MAX_PRODUCT_BYTES - 2 * 1024) nameLength++;
    const body = bodyOf(nameLength);
    const product = await createProduct(body);
    const size = Buffer.byteLength(JSON.stringify(product));
    expect(size).toBeGreaterThan(MAX_PRODUCT_BYTES * 0.9);
    expect(size).toBeLessThanOrEqual(MAX_PRODUCT_BYTES);

    const customer = await newCustomer(shop.secretTest);
    const order = await call('POST', '/v1/orders', {
      body: { customer_id: customer.id, items: [{ product_id: product.id, quantity: 6 }] },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(await stockOf(shop.secretTest, product.id)).toBe(4);
    const low = ofKind(await storedEvents(testTenant), 'stock.low').filter((event) => event.data.product.id === product.id);
    expect(low).toHaveLength(1);
    expect(low[0]!.data.product).toEqual({
      id: product.id,
      name: 'Large poster',
      stock: { tracked: true, quantity: 4, low_threshold: 5 },
    });
  });
});

describe('the OpenAPI document', () => {
  it('names the base URL the caller used: plain http on the local stack', async () => {
    const response = await call('GET', '/v1/openapi.json', { key: null });
    expect(response.status).toBe(200);
    expect(response.body.servers).toEqual([{ url: api }]);
    const viaLocalhost = await fetch(`${api.replace('127.0.0.1', 'localhost')}/v1/openapi.json`);
    expect(((await viaLocalhost.json()) as { servers: unknown }).servers).toEqual([{ url: api.replace('127.0.0.1', 'localhost') }]);
  });
});

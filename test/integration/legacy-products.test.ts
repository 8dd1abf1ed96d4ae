import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { updateAccount } from '#shared/accounts/repository';
import { dynamo } from '#shared/clients/dynamodb';
import { legacyProductKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { BUILT_IN_PLACEHOLDER } from '#shared/legacy-products/images';
import { LegacyProductSchema, LegacyQuoteSchema } from '#shared/legacy-products/schema';
import { calculateLegacyPrice } from '#shared/legacy-products/service';
import type { BodyOf } from '#test/support/api-types';
import { call, dynamoDbWork, type ApiResponse } from '#test/support/http';
import { brochure, smallTable } from '#test/support/products';
import { storedTotal, withCallCount } from '#test/support/store';
import { freshShop } from '#test/support/shop';

const { shop, other, swiss } = inject('fixtures');
const testTenant = { accountId: shop.accountId, mode: 'test' as const };
const HEADER = 'format,color,quantity,pages,price';
/** The documented path and the spec's bare alias. */
type Prefix = '/v1' | '';

async function create(body: Record<string, unknown> = brochure(), key?: string, prefix: Prefix = '/v1') {
  const response = await call('POST', `${prefix}/legacy-products`, { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

const putCsv = (id: number, csv: string, options: { key?: string; prefix?: Prefix; contentType?: string } = {}) =>
  call('PUT', `${options.prefix ?? '/v1'}/legacy-products/${id}/prices`, {
    key: options.key,
    rawBody: csv,
    headers: { 'Content-Type': options.contentType ?? 'text/csv' },
  });

const quote = (id: number, body: unknown, prefix: Prefix = '/v1', key?: string) =>
  call('POST', `${prefix}/legacy-products/${id}/calculate`, { key, body });

/** Keys of one (version, format, color) partition of price items. */
async function storedPrices(id: number, version: number, format: string, color: string) {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': legacyProductKeys.legacyPricePartition(testTenant, id, version, format, color) },
    }),
  );
  return result.Items ?? [];
}

async function storedVersionRecords(id: number) {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': legacyProductKeys.legacyProduct(testTenant, id).pk,
        ':prefix': legacyProductKeys.legacyPriceVersionPrefix,
      },
    }),
  );
  return result.Items ?? [];
}

describe('legacy products', () => {
  it('creates a product with its price table and shows all configuration options under both prefixes', async () => {
    const product = await create();
    expect(LegacyProductSchema.strict().parse(product)).toMatchObject({
      name: 'Brochure',
      brands: ['PrintPro', 'EcoPrint'],
      formats: ['A5', 'A4'],
      colors: ['4/4', '4/0'],
      quantities: [100, 250, 500],
      pages: [8, 12],
      images: ['https://cdn.example.com/b1.jpg', 'https://cdn.example.com/b2.jpg'],
      price_count: 5,
    });
    const v1 = await call('GET', `/v1/legacy-products/${product.id}`);
    const bare = await call('GET', `/legacy-products/${product.id}`);
    expect(v1.status).toBe(200);
    expect(bare.body).toEqual(v1.body);
    expect(v1.body.data).toEqual(product);
    const list = await call('GET', '/legacy-products?per_page=100');
    expect(list.body.data.some((item: { id: number }) => item.id === product.id)).toBe(true);
    expect(list.body.pagination.total).toBe((await call('GET', '/v1/legacy-products')).body.pagination.total);
  });

  it('prices a listed combination with tax and total, under both prefixes', async () => {
    const { id } = await create();
    for (const prefix of ['/v1', ''] as const) {
      const response = await quote(id, { format: 'A4', color: '4/4', quantity: 500, pages: 12 }, prefix);
      expect(response.status).toBe(200);
      // 210.25 + 19 % (39.9475 → 39.95) = 250.20
      expect(LegacyQuoteSchema.strict().parse(response.body.data)).toEqual({
        legacy_product_id: id,
        format: 'A4',
        color: '4/4',
        quantity: 500,
        pages: 12,
        price: 210.25,
        tax_category: 'standard',
        tax_rate: 19,
        taxes: [{ category: 'standard', rate: 19, taxable_amount: 210.25, tax_amount: 39.95 }],
        tax: 39.95,
        total: 250.2,
        currency: 'EUR',
      });
    }
    const chf = await create(brochure(), swiss.secretTest);
    expect((await quote(chf.id, { format: 'A5', color: '4/4', quantity: 100, pages: 8 }, '', swiss.secretTest)).body.data).toMatchObject({
      price: 49.9,
      tax: 3.84,
      total: 53.74,
      currency: 'CHF',
    });
  });

  it('answers an unlisted combination with 422 and the valid values, never interpolating quantities', async () => {
    const { id } = await create();
    const unknown = await quote(id, { format: 'A3', color: '4/4', quantity: 100, pages: 8 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details).toEqual([{ field: 'format', message: 'Unknown format "A3"; valid formats: A5, A4' }]);
    const between = await quote(id, { format: 'A4', color: '4/4', quantity: 300, pages: 8 });
    expect(between.body.error.details).toEqual([
      {
        field: 'quantity',
        message:
          'No price for quantity 300 (quantities are not interpolated); nearest valid quantities: 250, 500; all valid quantities: 100, 250, 500',
      },
    ]);
    // Every value is listed, but the table has no A4 4/0 with 8 pages.
    const sparse = await quote(id, { format: 'A4', color: '4/0', quantity: 100, pages: 8 });
    expect(sparse.status).toBe(422);
    expect(sparse.body.error.details![0]!.field).toBe('pages');
    expect(sparse.body.error.details![0]!.message).toContain('all valid pages: 12');
    const bad = await quote(id, { format: 'A4', color: '4/4', quantity: 0, pages: 8, extra: 1 });
    expect(bad.body.error.details!.map((d: { field: string }) => d.field).sort()).toEqual(['extra', 'quantity']);
  });

  it('falls back to the main image, then the account placeholder, then a built-in one', async () => {
    const shop = await freshShop('Legacy images');
    const key = shop.secretTest;
    const mainOnly = await create({ ...brochure(), gallery_images: [] }, key);
    expect(mainOnly.images).toEqual(['https://cdn.example.com/brochure.jpg']);
    const bare = await create({ name: 'No images' }, key);
    expect(bare).toMatchObject({
      images: [BUILT_IN_PLACEHOLDER],
      image: null,
      gallery_images: [],
      formats: [],
      price_count: 0,
      prices_updated_at: null,
    });
    await updateAccount(shop.accountId, { placeholder_image_url: 'https://cdn.example.com/placeholder.png' });
    expect((await call('GET', `/legacy-products/${bare.id}`, { key })).body.data.images).toEqual([
      'https://cdn.example.com/placeholder.png',
    ]);
    const listed = await call('GET', '/legacy-products', { key });
    expect(listed.body.data.map((p: { images: string[] }) => p.images.length)).toEqual([1, 1]);
    const noPrices = await quote(bare.id, { format: 'A4', color: '4/4', quantity: 1, pages: 1 }, '', key);
    expect(noPrices.body.error.details).toEqual([{ field: 'id', message: 'This product has no price table yet' }]);
  });

  it('refuses duplicate JSON rows and bad images, storing nothing', async () => {
    const before = await storedTotal(testTenant, 'legacy_products');
    const duplicate = await call('POST', '/v1/legacy-products', { body: brochure([...smallTable, smallTable[1]]) });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.error.details).toEqual([
      { field: 'prices.5', message: 'duplicates prices.1 (same format, color, quantity and pages)' },
    ]);
    const images = await call('POST', '/v1/legacy-products', {
      body: { name: 'X', gallery_images: ['', 'javascript:alert(1)'], prices: [{ ...smallTable[0], price: 1.234 }] },
    });
    expect(images.body.error.details!.map((d: { field: string }) => d.field)).toEqual([
      'gallery_images.0',
      'gallery_images.1',
      'prices.0.price',
    ]);
    expect(await storedTotal(testTenant, 'legacy_products')).toBe(before);
  });

  it('guards access: 401 without a key, 403 without products:write, publishable keys read and calculate, other tenants get 404', async () => {
    const { id } = await create();
    expect((await call('GET', '/legacy-products', { key: null })).status).toBe(401);
    expect((await call('GET', '/legacy-products', { key: shop.customersReadOnly })).status).toBe(403);
    expect((await call('GET', `/legacy-products/${id}`, { key: shop.publishableTest })).status).toBe(200);
    expect((await quote(id, { format: 'A5', color: '4/4', quantity: 100, pages: 8 }, '', shop.publishableTest)).status).toBe(200);
    expect((await putCsv(id, `${HEADER}\nA4,4/4,1,1,1`, { key: shop.publishableTest })).status).toBe(403);
    expect((await call('POST', '/legacy-products', { key: swiss.productsReadOnly, body: brochure() })).status).toBe(403);
    expect((await call('GET', `/legacy-products/${id}`, { key: other.secretTest })).status).toBe(404);
    expect((await call('GET', `/v1/legacy-products/${id}`, { key: shop.secretLive })).status).toBe(404);
    expect((await putCsv(id, `${HEADER}\nA4,4/4,1,1,1`, { key: other.secretTest })).status).toBe(404);
    for (const path of ['/legacy-products/999999', '/legacy-products/abc']) expect((await call('GET', path)).status).toBe(404);
  });

  it('pages the list by cursor under both prefixes, reading only the page; a cursor of another tenant is a 422', async () => {
    const account = await createAccount({ name: 'Legacy cursor', plan: 'enterprise' });
    const key = account.keys.secret_test.key;
    const made: number[] = [];
    for (let i = 0; i < 7; i++) made.push((await create(brochure([]), key)).id);
    for (const prefix of ['/v1', ''] as const) {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const response: ApiResponse<BodyOf<'GET', '/v1/legacy-products'>> = await call(
          'GET',
          `${prefix}/legacy-products?per_page=3${cursor ? `&starting_after=${cursor}` : ''}`,
          { key },
        );
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        expect(response.body.pagination).toMatchObject({ page: 1, total: 7, has_more: response.body.pagination.next_cursor !== null });
        const work = dynamoDbWork(response);
        // The cursor product, the page's keys (+ one), its items, the counter.
        expect(work.items, work.commands.join(',')).toBeLessThanOrEqual(1 + 4 + 3 + 1);
        seen.push(...response.body.data.map((product) => product.id));
        cursor = response.body.pagination.next_cursor ?? null;
      } while (cursor !== null);
      expect(seen).toEqual(made.toReversed());
    }
    // A product of the fixture shop whose id the new account does not have.
    let stranger = await create(brochure([]));
    while (stranger.id <= made.at(-1)!) stranger = await create(brochure([]));
    for (const [query, field] of [
      [`starting_after=${stranger.id}`, 'starting_after'],
      [`starting_after=${made[3]}&page=2`, 'page'],
      ['starting_after=x', 'starting_after'],
    ]) {
      const response = await call('GET', `/v1/legacy-products?${query}`, { key });
      expect(response.status, query).toBe(422);
      expect(response.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual([field]);
    }
    const live = await call('GET', `/legacy-products?starting_after=${made[0]}`, { key: account.keys.secret_live.key });
    expect(live.status).toBe(422);
  });
});

describe('legacy price tables from CSV', () => {
  it('replaces the table, removes the previous version and answers under both prefixes', async () => {
    const product = await create();
    const response = await putCsv(product.id, `${HEADER}\r\nA6,1/0,50,4,9.99\r\nA6,1/0,100,4,14.5\r\n`, { prefix: '' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({
      id: product.id,
      formats: ['A6'],
      colors: ['1/0'],
      quantities: [50, 100],
      pages: [4],
      price_count: 2,
      brands: ['PrintPro', 'EcoPrint'],
    });
    expect(response.body.data.prices_updated_at! >= product.prices_updated_at!).toBe(true);
    expect((await quote(product.id, { format: 'A6', color: '1/0', quantity: 100, pages: 4 })).body.data.price).toBe(14.5);
    expect((await quote(product.id, { format: 'A4', color: '4/4', quantity: 100, pages: 8 })).status).toBe(422);
    // Version 1 (the JSON table) is gone, and no bookkeeping is left.
    expect(await storedPrices(product.id, 1, 'A4', '4/4')).toEqual([]);
    expect(await storedPrices(product.id, 2, 'A6', '1/0')).toHaveLength(2);
    expect(await storedVersionRecords(product.id)).toEqual([]);
  });

  it('stores nothing when one row is bad, naming its line', async () => {
    const product = await create();
    const rows = Array.from({ length: 200 }, (_, i) => `A4,4/4,${i + 1},4,${(i + 1) * 2}.50`);
    rows[136] = 'A4,4/4,137,4,12,50';
    const response = await putCsv(product.id, `${HEADER}\n${rows.join('\n')}\n`);
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([{ field: 'line 138', message: 'expected 5 fields, found 6' }]);
    expect((await call('GET', `/v1/legacy-products/${product.id}`)).body.data).toEqual(product);
    expect(await storedPrices(product.id, 2, 'A4', '4/4')).toEqual([]);
    expect(await storedVersionRecords(product.id)).toEqual([]);
    const headerless = await putCsv(product.id, rows.slice(0, 3).join('\n'));
    expect(headerless.body.error.details![0]!.field).toBe('line 1');
  });

  it('takes text/csv only', async () => {
    const { id } = await create();
    const json = await call('PUT', `/v1/legacy-products/${id}/prices`, { body: { prices: [] } });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');
    expect((await putCsv(id, `${HEADER}\nA4,4/4,1,1,1`, { contentType: 'text/csv; charset=utf-8' })).status).toBe(200);
  });

  it('lets one of two concurrent imports win, leaving one whole table and no leftovers', async () => {
    const { id } = await create();
    const tableOf = (format: string) =>
      `${HEADER}\n${Array.from({ length: 60 }, (_, i) => `${format},4/4,${i + 1},8,${i + 1}.00`).join('\n')}`;
    const results = await Promise.all([putCsv(id, tableOf('X1')), putCsv(id, tableOf('X2'))]);
    expect(results.map((r) => r.status).sort()).toEqual(expect.arrayContaining([200]));
    for (const result of results) expect([200, 409]).toContain(result.status);
    const live = (await call('GET', `/legacy-products/${id}`)).body.data;
    expect(live.price_count).toBe(60);
    expect(live.formats).toHaveLength(1);
    expect((await quote(id, { format: live.formats[0], color: '4/4', quantity: 42, pages: 8 })).body.data.price).toBe(42);
    expect(await storedVersionRecords(id)).toEqual([]);
  });
});

describe('a 72,000-price table (12 formats × 6 colors × 25 quantities × 40 pages)', () => {
  const formats = ['A7', 'A6', 'A5', 'A4', 'A3', 'A2', 'A1', 'DL', 'SRA3', '10x10', '21x21', 'B5'];
  const colors = ['1/0', '1/1', '4/0', '4/1', '4/4', '5/5'];
  const quantities = [
    25, 50, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 7500, 10000, 15000, 20000, 25000, 30000,
    40000, 50000,
  ];
  const pages = Array.from({ length: 40 }, (_, i) => (i + 1) * 4);
  /** Minor units, distinct per cell, so a wrong lookup cannot pass by accident. */
  const priceOf = (f: number, c: number, q: number, p: number) => 1000 + f * 100_000 + c * 10_000 + q * 300 + p * 7;
  let id: number;
  let importMs: number;

  beforeAll(async () => {
    const lines = [HEADER];
    formats.forEach((format, f) =>
      colors.forEach((color, c) =>
        quantities.forEach((quantity, q) =>
          pages.forEach((page, p) => lines.push(`${format},${color},${quantity},${page},${(priceOf(f, c, q, p) / 100).toFixed(2)}`)),
        ),
      ),
    );
    expect(lines).toHaveLength(72_001);
    id = (await create({ name: 'Catalogue', brands: ['House'] })).id;
    const started = performance.now();
    const response = await putCsv(id, lines.join('\n'), { prefix: '' });
    importMs = performance.now() - started;
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
    expect(response.body.data).toMatchObject({ price_count: 72_000, formats, colors, quantities, pages });
    console.info(`72,000-row CSV import (${(lines.join('\n').length / 1e6).toFixed(1)} MB): ${Math.round(importMs)} ms`);
  }, 240_000);

  afterAll(() => expect(importMs).toBeGreaterThan(0));

  it('prices any listed combination under both prefixes', async () => {
    const samples = [
      [0, 0, 0, 0],
      [11, 5, 24, 39],
      [3, 4, 10, 7],
      [7, 2, 17, 22],
      [5, 1, 3, 31],
    ] as const;
    for (const [i, [f, c, q, p]] of samples.entries()) {
      const response = await quote(
        id,
        { format: formats[f], color: colors[c], quantity: quantities[q], pages: pages[p] },
        i % 2 ? '' : '/v1',
      );
      expect(response.status).toBe(200);
      expect(Math.round(response.body.data.price * 100)).toBe(priceOf(f, c, q, p));
    }
    const between = await quote(id, { format: 'A4', color: '4/4', quantity: 600, pages: 8 }, '');
    expect(between.body.error.details![0]!.message).toContain('nearest valid quantities: 500, 750');
  });

  it('reads exactly one price item per calculation (plus the product, and the account with its settings in one BatchGetItem)', async () => {
    const started = performance.now();
    const { result, commands } = await withCallCount(() =>
      calculateLegacyPrice(testTenant, id, { format: 'SRA3', color: '4/1', quantity: 7500, pages: 96 }),
    );
    expect(Math.round(result.price * 100)).toBe(priceOf(8, 3, 17, 23));
    console.info(`legacy calculate against the 72k table: ${commands.join(', ')} in ${Math.round(performance.now() - started)} ms`);
    expect(commands.filter((name) => !name.startsWith('GetItem'))).toEqual(['BatchGetItem']);
    expect(commands).toHaveLength(3);
  });
});

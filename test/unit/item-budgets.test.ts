/**
 * No request can make an item exceed DynamoDB's 400 KB: the worst case of each item that
 * aggregates input, computed from the schemas' maximums. Products and legacy products carry a
 * byte budget (a 422 above it, rules.ts / stored.ts); an order at every maximum fits with its
 * event (which holds the order twice: `data` and `data_json`); `stock.low` carries a slim product.
 */
import { MAX_EXEMPTION_REASON } from '#shared/tax/schema';
import { SELLER_COUNTRY_UNKNOWN } from '#shared/tax/sale';
import { MAX_FILES_PER_ORDER } from '#shared/files/line-files';
import { describe, expect, it } from 'vitest';
import { DYNAMODB_ITEM_LIMIT, itemBytes, valueBytes } from '#shared/db/item-size';
import { eventPut } from '#shared/events/outbox';
import { legacyProductSizeProblems, MAX_LEGACY_PRODUCT_BYTES, type LegacyProductRecord } from '#shared/legacy-products/stored';
import { MAX_PRICE_ROWS, MAX_VALUE_LENGTH } from '#shared/legacy-products/price-table';
import { orderCreated } from '#shared/orders/events';
import { MAX_ORDER_LINES } from '#shared/orders/schema';
import { orderPut, storedOrder, type OrderRecord } from '#shared/orders/stored';
import { stockLow, stockLowProduct } from '#shared/products/events';
import { MAX_PRODUCT_BYTES, productSizeProblems } from '#shared/products/rules';
import { ProductCreateSchema } from '#shared/products/schema';
import { storedProduct, type ProductRecord } from '#shared/products/stored';
import { MAX_PRODUCT_OPTIONS } from '#shared/schemas/common';
import { MAX_CUSTOMS_DESCRIPTION_LENGTH } from '#shared/schemas/customs';
import { productRecord } from '#test/support/records';

const tenant = { accountId: 'acct_0123456789abcdef', mode: 'live' as const };
/** A character of 3 UTF-8 bytes, also 3 bytes in JSON: the worst a text field can do per character. */
const wide = (length: number) => '€'.repeat(length);
/** Lower-case codes of the longest kind (50 characters), distinct by their end. */
const code = (index: number) => `c${String(index).padStart(49, '0')}`;

describe('item sizes as DynamoDB counts them', () => {
  it('counts names and strings in UTF-8, numbers by their digits, lists and maps with their overhead', () => {
    expect(valueBytes('abc')).toBe(3);
    expect(valueBytes('€')).toBe(3);
    expect(valueBytes(true)).toBe(1);
    expect(valueBytes(null)).toBe(1);
    expect(valueBytes(7)).toBe(2);
    expect(valueBytes(123456789)).toBe(6);
    expect(valueBytes(1e300)).toBe(2);
    expect(valueBytes([])).toBe(3);
    expect(valueBytes(['a', 'b'])).toBe(3 + 2 + 2);
    expect(valueBytes({ ab: 'c' })).toBe(3 + 1 + 2 + 1);
    expect(itemBytes({ pk: 'x', n: 1, gone: undefined })).toBe(2 + 1 + 1 + 2);
  });
});

describe('products carry a byte budget', () => {
  /** A product at every maximum of the schema: 20 options × 50 values with 100-character names, 20 long images. */
  const atSchemaMaximums = (): ProductRecord =>
    productRecord({
      name: wide(200),
      description: wide(5000),
      category: wide(100),
      options: Array.from({ length: MAX_PRODUCT_OPTIONS }, (_, o) => ({
        code: code(o),
        name: wide(100),
        required: true,
        default: code(0),
        values: Array.from({ length: 50 }, (_, v) => ({ code: code(v), name: wide(100), price_delta: -99_999_999, price_factor: 1.2345 })),
      })),
      images: Array.from({ length: 20 }, (_, i) => `https://cdn.example.com/${wide(1970)}${i}`),
    });

  it('would exceed the item limit at the schema maximums, so a budget refuses it (422) before any write', () => {
    const product = atSchemaMaximums();
    const { id: _id, created_at: _created, updated_at: _updated, ...input } = storedProduct.view(product);
    const parsed = ProductCreateSchema.safeParse(input);
    expect(parsed.error?.issues ?? []).toEqual([]); // every field within its own maximum
    expect(itemBytes(storedProduct.attributes(product, 'put'))).toBeGreaterThan(DYNAMODB_ITEM_LIMIT);
    const problems = productSizeProblems(product);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toEqual({ field: 'options', message: expect.stringMatching(/^makes the product \d+ KB .*at most 200 KB$/) });
  });

  it('accepts a large real product, and anything up to the budget fits the item limit twice over', () => {
    const large = productRecord({
      description: 'x'.repeat(2000),
      options: Array.from({ length: 10 }, (_, o) => ({
        code: `option${o}`,
        name: `Option ${o}`,
        required: true,
        default: null,
        values: Array.from({ length: 20 }, (_, v) => ({
          code: `value${v}`,
          name: `Value ${v} with a name`,
          price_delta: 10,
          price_factor: null,
        })),
      })),
    });
    expect(productSizeProblems(large)).toEqual([]);
    expect(MAX_PRODUCT_BYTES * 2).toBeLessThanOrEqual(DYNAMODB_ITEM_LIMIT);
  });

  it('keeps the stock.low event of a product at the budget a few hundred bytes (the slim product)', () => {
    const product = atSchemaMaximums();
    const event = stockLow(tenant, { product: stockLowProduct(product, 3) });
    expect(Object.keys((event.Put!.Item!.data as { product: object }).product)).toEqual(['id', 'name', 'stock']);
    expect(itemBytes(event.Put!.Item!)).toBeLessThan(2 * 1024);
  });
});

describe('an order at every maximum of its schema fits, with its event', () => {
  const address = {
    name: wide(200),
    company: wide(200),
    line1: wide(200),
    line2: wide(200),
    postal_code: wide(20),
    city: wide(100),
    region: wide(100),
    country: 'DE',
  };
  const order: OrderRecord = {
    id: Number.MAX_SAFE_INTEGER,
    order_number: 'ORD-2026-999999999',
    status: 'in_production',
    customer: { id: Number.MAX_SAFE_INTEGER, name: wide(200), email: `${'a'.repeat(64)}@${'b'.repeat(185)}.com` },
    // Lines copy a description (≤ 500) and the chosen options: one per product option, codes of ≤ 50 characters.
    items: Array.from({ length: MAX_ORDER_LINES }, (_, index) => ({
      id: index + 1,
      product_id: Number.MAX_SAFE_INTEGER - index,
      legacy: null,
      description: wide(500),
      quantity: 10_000_000,
      unit_price: 99_999_999,
      setup_fee: 99_999_999,
      price_source: 'product' as const,
      options: Object.fromEntries(Array.from({ length: MAX_PRODUCT_OPTIONS }, (_, o) => [code(o), code(o + 100)])),
      // At most MAX_FILES_PER_ORDER files in all, each line's copy with a name of at most 200 characters.
      file_ids: Array.from({ length: MAX_FILES_PER_ORDER / MAX_ORDER_LINES }, () => Number.MAX_SAFE_INTEGER),
      files: Array.from({ length: MAX_FILES_PER_ORDER / MAX_ORDER_LINES }, () => ({
        id: Number.MAX_SAFE_INTEGER,
        filename: wide(200),
        content_type: 'application/postscript',
        size: 2 * 1024 * 1024 * 1024,
        sha256: 'f'.repeat(64),
      })),
      total: 999_999_990_000_000,
      tax_category: 'exempt' as const,
      tax_rate: 0,
      tax_exemption_reason: wide(MAX_EXEMPTION_REASON),
      // Customs (docs/shipping.md#customs): 10 digits, a country, a description of at most 255 characters.
      hs_code: '4911999999',
      origin_country: 'DE',
      customs_description: wide(MAX_CUSTOMS_DESCRIPTION_LENGTH),
    })),
    subtotal: Number.MAX_SAFE_INTEGER,
    tax_rate: 99.99,
    tax_rates: { standard: 99.99, reduced: 99.99, zero: 0, exempt: 0 },
    tax_treatment: 'eu_consumer',
    // The longest warning the service writes (shared/tax/treatment.ts, sale.ts): its own text, never input.
    tax_treatment_warning: SELLER_COUNTRY_UNKNOWN,
    shipping_tax_category: 'standard',
    shipping_tax_rate: 99.99,
    // At most one entry per applied category and rate: six categories.
    taxes: (['standard', 'reduced', 'zero', 'exempt', 'reverse_charge', 'export'] as const).map((category) => ({
      category,
      rate: 99.99,
      taxable_amount: Number.MAX_SAFE_INTEGER,
      tax_amount: Number.MAX_SAFE_INTEGER,
    })),
    tax: Number.MAX_SAFE_INTEGER,
    shipping: 99_999_999,
    total: Number.MAX_SAFE_INTEGER,
    currency: 'EUR',
    shipping_address: address,
    billing_address: address,
    notes: wide(5000),
    due_date: '2026-12-31',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    version: 1_000_000,
    quote_id: null,
    reserved: Array.from({ length: MAX_ORDER_LINES }, (_, index) => ({
      product_id: Number.MAX_SAFE_INTEGER - index,
      quantity: 10_000_000,
    })),
    job_ids: Array.from({ length: MAX_ORDER_LINES }, (_, index) => Number.MAX_SAFE_INTEGER - index),
    open_jobs: MAX_ORDER_LINES,
    completed_jobs: 0,
    production_started_at: '2026-01-01T00:00:00.000Z',
    production_completed_at: null,
  };

  it('keeps the order item and the order.created event item (the order twice) under 400 KB', () => {
    const orderItem = itemBytes(orderPut(tenant, order).Put!.Item!);
    const eventItem = itemBytes(eventPut(tenant, orderCreated, { order: storedOrder.view(order) }).item.Put!.Item!);
    expect(orderItem).toBeLessThan(200 * 1024);
    expect(eventItem).toBeLessThan(350 * 1024);
    expect(eventItem).toBeLessThan(DYNAMODB_ITEM_LIMIT);
  });
});

describe('legacy products carry a byte budget', () => {
  const record = (overrides: Partial<LegacyProductRecord> = {}): LegacyProductRecord => ({
    id: 1,
    name: 'Brochure',
    description: null,
    brands: [],
    formats: ['A4'],
    colors: ['4/4'],
    quantities: [100],
    pages: [8],
    images: [],
    image: null,
    gallery_images: [],
    tax_category: 'standard',
    tax_exemption_reason: null,
    price_count: 1,
    prices_updated_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    price_version: 1,
    price_version_seq: 1,
    ...overrides,
  });

  it('refuses a table whose option lists would not fit (100,000 rows of distinct 100-character formats), naming prices', () => {
    const formats = Array.from({ length: MAX_PRICE_ROWS }, (_, index) => `${index}`.padEnd(MAX_VALUE_LENGTH, 'x'));
    const problems = legacyProductSizeProblems(record({ formats }));
    expect(problems).toEqual([{ field: 'prices', message: expect.stringMatching(/^makes the legacy product \d+ KB/) }]);
  });

  it('accepts a large real table and stays under the item limit up to the budget', () => {
    const quantities = Array.from({ length: 200 }, (_, index) => (index + 1) * 50);
    expect(legacyProductSizeProblems(record({ formats: ['A6', 'A5', 'A4', 'A3', 'DL'], quantities }))).toEqual([]);
    expect(MAX_LEGACY_PRODUCT_BYTES * 2).toBeLessThanOrEqual(DYNAMODB_ITEM_LIMIT);
  });
});

import { DEFAULT_TAX_RATES } from '#shared/tax/categories';
import { describe, expect, it } from 'vitest';
import { priceCart } from '#shared/carts/line-pricing';
import { priceKey, revisionOf, versionOf, type Catalogue } from '#shared/carts/pricing';
import { mergeLines } from '#shared/carts/merge';
import { CartLineInputSchema } from '#shared/carts/schema';
import { MAX_PAGES, MAX_QUANTITY as MAX_LEGACY_QUANTITY, MAX_VALUE_LENGTH } from '#shared/legacy-products/price-table';
import { MAX_LINE_FILES, MAX_LINE_QUANTITY, OrderLineInputSchema } from '#shared/orders/schema';
import { MAX_PRODUCT_OPTIONS } from '#shared/schemas/common';
import type { CartLineRecord, CartRecord } from '#shared/carts/stored';
import type { LegacyProductRecord } from '#shared/legacy-products/stored';
import type { ProductRecord } from '#shared/products/stored';

const product = (overrides: Partial<ProductRecord> = {}): ProductRecord =>
  ({
    id: 1,
    name: 'Cards',
    description: null,
    category: 'cards',
    is_active: true,
    min_qty: 1,
    max_qty: 1000,
    unit: 'piece',
    base_price: 12,
    price_tiers: [{ min_qty: 250, unit_price: 9 }],
    options: [
      {
        code: 'paper',
        name: 'Paper',
        required: true,
        default: 'matt',
        values: [
          { code: 'matt', name: 'Matt', price_delta: 0, price_factor: null },
          { code: 'linen', name: 'Linen', price_delta: 3, price_factor: null },
        ],
      },
    ],
    setup_fee: 990,
    production_days: 1,
    tax_category: 'standard',
    tax_exemption_reason: null,
    stock: { tracked: false, quantity: 0, low_threshold: 0 },
    images: [],
    created_at: '',
    updated_at: '',
    version: 1,
    order_refs: 0,
    ...overrides,
  }) as ProductRecord;

const legacy = {
  id: 7,
  name: 'Brochure',
  formats: ['A5'],
  colors: ['4/4'],
  quantities: [100],
  pages: [8],
  price_version: 2,
  tax_category: 'standard',
  tax_exemption_reason: null,
} as LegacyProductRecord;

const line = (overrides: Partial<CartLineRecord>): CartLineRecord => ({
  id: 1,
  kind: 'product',
  product_id: 1,
  options: { paper: 'matt' },
  legacy_product_id: null,
  format: null,
  color: null,
  pages: null,
  quantity: 100,
  file_ids: [],
  note: null,
  unit_price: 12,
  setup_fee: 990,
  price_version: 0,
  added_at: '',
  ...overrides,
});

const legacyLine = (overrides: Partial<CartLineRecord> = {}) =>
  line({
    kind: 'legacy',
    product_id: null,
    options: {},
    legacy_product_id: 7,
    format: 'A5',
    color: '4/4',
    pages: 8,
    unit_price: 4990,
    setup_fee: 0,
    price_version: 2,
    ...overrides,
  });

const cell = { format: 'A5', color: '4/4', quantity: 100, pages: 8 };
const catalogue = (products: ProductRecord[] = [product()], price = 4990): Catalogue => ({
  products: new Map(products.map((record) => [record.id, record])),
  legacy: new Map([[7, legacy]]),
  prices: new Map([[priceKey(7, 2, cell), price]]),
  pricing: { currency: 'EUR', tax_rate: 19, rates: DEFAULT_TAX_RATES },
});

const cart = (items: CartLineRecord[], next = items.length + 1): CartRecord => ({ items, next_line_id: next, revision: 3 }) as CartRecord;

describe('pricing a cart', () => {
  it('prices product lines by the formula and legacy lines by the run, with tax once on the subtotal', () => {
    const priced = priceCart(cart([line({}), legacyLine({ id: 2 })]), catalogue());
    expect(priced.lines.map((entry) => entry.total)).toEqual([100 * 12 + 990, 4990]);
    expect(priced.subtotal).toBe(7180);
    expect(priced.tax).toBe(1364);
    expect(priced.taxes).toEqual([{ category: 'standard', rate: 19, taxable_amount: 7180, tax_amount: 1364 }]);
    expect(priced.lines.map((entry) => [entry.tax_category, entry.tax_rate])).toEqual([
      ['standard', 19],
      ['standard', 19],
    ]);
    expect(priced.lines.every((entry) => entry.available && !entry.price_changed)).toBe(true);
  });

  it('marks a changed price and an archived product, and the fingerprint follows what is shown', () => {
    const before = priceCart(cart([line({}), legacyLine({ id: 2 })]), catalogue());
    const again = priceCart(cart([line({}), legacyLine({ id: 2 })]), catalogue());
    expect(again.fingerprint).toBe(before.fingerprint);
    const repriced = priceCart(cart([line({}), legacyLine({ id: 2 })]), catalogue([product()], 5990));
    expect(repriced.lines[1]).toMatchObject({ price_changed: true, unit_price: 5990 });
    expect(repriced.fingerprint).not.toBe(before.fingerprint);
    const archived = priceCart(cart([line({}), legacyLine({ id: 2 })]), catalogue([product({ is_active: false })]));
    expect(archived.lines[0]).toMatchObject({ available: false, total: 0 });
    expect(archived.lines[0]!.reason).toContain('archived');
    expect(archived.subtotal).toBe(4990);
  });

  it("taxes a reduced-rate product at the account's reduced rate, one group per rate, rounded once each", () => {
    const priced = priceCart(cart([line({}), legacyLine({ id: 2 })]), catalogue([product({ tax_category: 'reduced' })]));
    // reduced: 21.90 × 7 % = 1.533 → 1.53; standard: 49.90 × 19 % = 9.481 → 9.48
    expect(priced.taxes).toEqual([
      { category: 'standard', rate: 19, taxable_amount: 4990, tax_amount: 948 },
      { category: 'reduced', rate: 7, taxable_amount: 2190, tax_amount: 153 },
    ]);
    expect(priced.tax).toBe(948 + 153);
    expect(priced.total).toBe(7180 + 948 + 153);
  });

  it('reads a version back to its revision, and nothing else', () => {
    expect(revisionOf(versionOf(12, 'abcdefghijkl'))).toBe(12);
    for (const text of ['probe', '12', '12.short', 'x.abcdefghijkl']) expect(revisionOf(text), text).toBeUndefined();
  });
});

describe('the merge rule', () => {
  it('adds up the same product with the same options (priced again), and appends the rest with new ids', () => {
    const target = cart([line({ quantity: 200, note: 'mine' })]);
    const source = cart([
      line({ id: 1, quantity: 100, file_ids: [5] }),
      line({ id: 2, options: { paper: 'linen' }, unit_price: 15 }),
      legacyLine({ id: 3 }),
    ]);
    const merged = mergeLines(target, source, catalogue());
    expect(merged.items.map((entry) => [entry.id, entry.quantity, entry.unit_price])).toEqual([
      [1, 300, 9],
      [2, 100, 15],
      [3, 100, 4990],
    ]);
    expect(merged.items[0]).toMatchObject({ note: 'mine', file_ids: [5] });
    expect(merged.next_line_id).toBe(4);
  });

  it('keeps two lines when the product does not allow the sum', () => {
    const merged = mergeLines(cart([line({ quantity: 600 })]), cart([line({ quantity: 600 })]), catalogue());
    expect(merged.items.map((entry) => entry.quantity)).toEqual([600, 600]);
  });

  it("keeps two lines when the sum would break a bound of an order's line: its quantity, its files", () => {
    const unbounded = catalogue([product({ max_qty: null })]);
    const big = mergeLines(cart([line({ quantity: MAX_LINE_QUANTITY })]), cart([line({ quantity: 1 })]), unbounded);
    expect(big.items.map((entry) => entry.quantity)).toEqual([MAX_LINE_QUANTITY, 1]);
    const files = (from: number) => Array.from({ length: 15 }, (_, index) => from + index);
    const many = mergeLines(cart([line({ file_ids: files(1) })]), cart([line({ file_ids: files(100) })]), unbounded);
    expect(many.items.map((entry) => entry.file_ids.length)).toEqual([15, 15]);
    const shared = mergeLines(cart([line({ file_ids: files(1) })]), cart([line({ file_ids: files(1) })]), unbounded);
    expect(shared.items.map((entry) => [entry.quantity, entry.file_ids.length])).toEqual([[200, 15]]);
    expect(MAX_LINE_FILES).toBe(20);
  });
});

describe("a cart's lines as an order's", () => {
  it("stay within every bound of an order line: the cart's largest lines are valid order lines (checkout casts nothing past it)", () => {
    const files = Array.from({ length: MAX_LINE_FILES }, (_, index) => index + 1);
    const options = Object.fromEntries(Array.from({ length: MAX_PRODUCT_OPTIONS }, (_, index) => [`o${index}`, 'v'.repeat(50)]));
    const largest = [
      { product_id: 1, quantity: MAX_LINE_QUANTITY, options, file_ids: files, note: 'n'.repeat(500) },
      {
        legacy_product_id: 1,
        format: 'f'.repeat(MAX_VALUE_LENGTH),
        color: 'c'.repeat(MAX_VALUE_LENGTH),
        pages: MAX_PAGES,
        quantity: Math.max(MAX_LINE_QUANTITY, MAX_LEGACY_QUANTITY),
        file_ids: files,
      },
    ];
    for (const line of largest) {
      const cartLine = CartLineInputSchema.parse(line);
      const { note: _note, ...orderLine } = cartLine;
      expect(OrderLineInputSchema.safeParse(orderLine).error?.issues ?? []).toEqual([]);
    }
    // One more of anything is refused by the cart already.
    for (const [field, value] of [
      ['quantity', MAX_LINE_QUANTITY + 1],
      ['file_ids', [...files, 99]],
    ] as const) {
      expect(CartLineInputSchema.safeParse({ ...largest[0], [field]: value }).success, field).toBe(false);
    }
    expect(CartLineInputSchema.safeParse({ ...largest[1], format: 'f'.repeat(MAX_VALUE_LENGTH + 1) }).success).toBe(false);
    expect(CartLineInputSchema.safeParse({ ...largest[1], pages: MAX_PAGES + 1 }).success).toBe(false);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ORDER_AMOUNT, orderTotals, priceLines, productIdsOf, type LinePricing, type ShippingTax } from '#shared/orders/lines';
import { DEFAULT_TAX_RATES } from '#shared/tax/categories';
import type { OrderLineInput } from '#shared/orders/schema';
import type { ProductRecord } from '#shared/products/stored';
import { productRecord } from '#test/support/records';

const eur19: LinePricing = { currency: 'EUR', treatment: 'domestic', rates: DEFAULT_TAX_RATES };
/** Every line and the shipping at one rate, standard: the totals of before categories. */
const atRate = (totals: number[], rate: number) => totals.map((total) => ({ total, tax_category: 'standard' as const, tax_rate: rate }));
const shippingAt = (amount: number, rate: number): ShippingTax => ({ amount, tax_category: 'standard', tax_rate: rate });

/** Business cards as in docs/pricing.md (minor units). */
const cards: ProductRecord = productRecord({
  id: 3,
  name: 'Business cards',
  category: 'cards',
  min_qty: 100,
  max_qty: 5000,
  base_price: 12,
  price_tiers: [
    { min_qty: 250, unit_price: 9 },
    { min_qty: 1000, unit_price: 6 },
  ],
  options: [
    {
      code: 'paper',
      name: 'Paper',
      required: true,
      default: null,
      values: [
        { code: 'matt', name: 'Matt', price_delta: 0, price_factor: null },
        { code: 'linen', name: 'Linen', price_delta: 3, price_factor: null },
      ],
    },
    {
      code: 'finish',
      name: 'Finish',
      required: true,
      default: 'none',
      values: [
        { code: 'none', name: 'None', price_delta: 0, price_factor: null },
        { code: 'soft', name: 'Soft-touch', price_delta: 1, price_factor: 1.25 },
      ],
    },
  ],
  setup_fee: 990,
  production_days: 4,
});
const archived: ProductRecord = { ...cards, id: 4, is_active: false };
const products = new Map([cards, archived].map((product) => [product.id, product]));

const line = (overrides: Partial<OrderLineInput> = {}): OrderLineInput => ({
  product_id: 3,
  quantity: 1000,
  options: { paper: 'linen' },
  file_ids: [],
  ...overrides,
});

describe('order lines', () => {
  it('prices a line without unit_price with the product calculation, setup fee included', () => {
    const { lines, problems } = priceLines([line({ options: { paper: 'linen', finish: 'soft' } })], products, eur19);
    expect(problems).toEqual([]);
    expect(lines).toEqual([
      {
        id: 1,
        product_id: 3,
        legacy: null,
        description: 'Business cards',
        quantity: 1000,
        unit_price: 13,
        setup_fee: 990,
        price_source: 'product',
        options: { paper: 'linen', finish: 'soft' },
        file_ids: [],
        files: [],
        total: 13_990,
        tax_category: 'standard',
        tax_rate: 19,
        tax_exemption_reason: null,
        hs_code: null,
        origin_country: null,
        customs_description: null,
      },
    ]);
  });

  it("copies the product's customs fields onto the line; a line's own win", () => {
    const declared = new Map([[3, { ...cards, hs_code: '491110', origin_country: 'DE', customs_description: 'Printed cards' }]]);
    const [copied] = priceLines([line()], declared, eur19).lines;
    expect(copied).toMatchObject({ hs_code: '491110', origin_country: 'DE', customs_description: 'Printed cards' });
    const [own] = priceLines([line({ hs_code: '4911990000', origin_country: 'AT' })], declared, eur19).lines;
    expect(own).toMatchObject({ hs_code: '4911990000', origin_country: 'AT', customs_description: 'Printed cards' });
  });

  it('takes a manual unit price as the whole price of the line (no setup fee) and records the defaults chosen', () => {
    const { lines } = priceLines([line({ unit_price: 15, description: 'Cards for Anna', file_ids: [9] })], products, eur19);
    expect(lines[0]).toMatchObject({
      unit_price: 15,
      setup_fee: 0,
      price_source: 'manual',
      total: 15_000,
      description: 'Cards for Anna',
      options: { paper: 'linen', finish: 'none' },
      file_ids: [9],
    });
  });

  it('names every line problem with its index: unknown, archived, quantity limits, options', () => {
    const { problems } = priceLines(
      [
        line({ product_id: 99 }),
        line({ product_id: 4 }),
        line({ quantity: 50 }),
        line({ quantity: 6000, unit_price: 1 }),
        line({ options: {} }),
        line({ options: { paper: 'linen', foil: 'gold' } }),
      ],
      products,
      eur19,
    );
    expect(problems.map((problem) => problem.field)).toEqual([
      'items.0.product_id',
      'items.1.product_id',
      'items.2.quantity',
      'items.3.quantity',
      'items.4.options.paper',
      'items.5.options.foil',
    ]);
    expect(problems[1]!.message).toBe('Product 4 is archived (is_active is false) and cannot be ordered');
    expect(problems[2]!.message).toBe("must be at least 100 (the product's min_qty)");
  });

  it('refuses an order whose lines add up beyond the maximum', () => {
    const big = Array.from({ length: 25 }, () => line({ quantity: 5000, unit_price: 100_000_000 }));
    const { problems } = priceLines(big, products, eur19);
    expect(problems).toEqual([
      { field: 'items', message: `the order's lines add up to more than ${MAX_ORDER_AMOUNT / 100}; split the order` },
    ]);
  });

  it('counts each product once for references', () => {
    expect(productIdsOf([{ product_id: 3 }, { product_id: 4 }, { product_id: 3 }])).toEqual([3, 4]);
  });
});

describe('order totals', () => {
  it('taxes lines and shipping together, rounding half-up once', () => {
    // 112.05 + 0 → tax 21.2895 → 21.29
    expect(orderTotals(atRate([7500, 3705], 19), shippingAt(0, 19))).toEqual({
      subtotal: 11_205,
      taxes: [{ category: 'standard', rate: 19, taxable_amount: 11_205, tax_amount: 2129 }],
      tax: 2129,
      total: 13_334,
    });
    // 139.90 + 10.00 → 7.7 % = 11.5423 → 11.54
    expect(orderTotals(atRate([13_990], 7.7), shippingAt(1000, 7.7))).toMatchObject({ subtotal: 13_990, tax: 1154, total: 16_144 });
    // 0.50 at 19 % = 0.095 → 0.10 (half-up)
    expect(orderTotals(atRate([50], 19), shippingAt(0, 19)).tax).toBe(10);
  });

  it('taxes each category and rate once, shipping in its own category: a brochure at 7 % and flyers at 19 %', () => {
    const lines = [
      { total: 25_250, tax_category: 'reduced' as const, tax_rate: 7 },
      { total: 10_005, tax_category: 'standard' as const, tax_rate: 19 },
      { total: 995, tax_category: 'standard' as const, tax_rate: 19 },
    ];
    // reduced: 252.50 × 7 % = 17.675 → 17.68; standard: (100.05 + 9.95 + 4.90 shipping) × 19 % = 21.831 → 21.83
    expect(orderTotals(lines, shippingAt(490, 19))).toEqual({
      subtotal: 36_250,
      taxes: [
        { category: 'standard', rate: 19, taxable_amount: 11_490, tax_amount: 2183 },
        { category: 'reduced', rate: 7, taxable_amount: 25_250, tax_amount: 1768 },
      ],
      tax: 3951,
      total: 36_250 + 490 + 3951,
    });
  });

  it('always has total = subtotal + shipping + tax, with tax the exact rational rounded half-up', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10 ** 9 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 10 ** 8 }),
        fc.integer({ min: 0, max: 5000 }),
        (totals, shipping, rateHundredths) => {
          const rate = rateHundredths / 100;
          const result = orderTotals(atRate(totals, rate), shippingAt(shipping, rate));
          const subtotal = totals.reduce((a, b) => a + b, 0);
          expect(result.subtotal).toBe(subtotal);
          const exact = (BigInt(subtotal + shipping) * BigInt(rateHundredths) * 2n + 10_000n) / 20_000n;
          expect(result.tax).toBe(Number(exact));
          expect(result.total).toBe(subtotal + shipping + result.tax);
        },
      ),
    );
  });
});

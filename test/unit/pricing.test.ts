import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applicableTier, priceProduct, type PricingProduct, type PriceQuote } from '#shared/pricing/product-price';
import { productProblems } from '#shared/products/rules';

const eur19 = { currency: 'EUR', tax_rate: 19 };

/** Flyer: 0.50 below 100, tiers from 100 / 500 / 1000; paper and finish options; 15.00 setup. */
const flyer: PricingProduct = {
  id: 7,
  unit: 'piece',
  min_qty: 50,
  max_qty: 10_000,
  base_price: 50,
  price_tiers: [
    { min_qty: 100, unit_price: 40 },
    { min_qty: 500, unit_price: 30 },
    { min_qty: 1000, unit_price: 25 },
  ],
  options: [
    {
      code: 'paper',
      name: 'Paper',
      required: true,
      default: null,
      values: [
        { code: 'std', name: 'Standard 90 g', price_delta: 0, price_factor: null },
        { code: 'gloss', name: 'Gloss 170 g', price_delta: 5, price_factor: null },
      ],
    },
    {
      code: 'finish',
      name: 'Finish',
      required: true,
      default: 'none',
      values: [
        { code: 'none', name: 'None', price_delta: 0, price_factor: null },
        { code: 'matte', name: 'Matte laminate', price_delta: 0, price_factor: 1.15 },
      ],
    },
    {
      code: 'holes',
      name: 'Drill holes',
      required: false,
      default: null,
      values: [{ code: 'two', name: 'Two holes', price_delta: 2, price_factor: null }],
    },
  ],
  setup_fee: 1500,
  production_days: 3,
};

function quote(product: PricingProduct, quantity: number, options: Record<string, string> = {}, context = eur19): PriceQuote {
  const outcome = priceProduct(product, { quantity, options }, context);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems));
  return outcome.quote;
}

describe('product pricing (documented examples)', () => {
  it('prices 1000 gloss + matte: (0.25 + 0.05) × 1.15 = 0.345 → 0.35 per piece', () => {
    const q = quote(flyer, 1000, { paper: 'gloss', finish: 'matte' });
    expect(q).toMatchObject({
      product_id: 7,
      quantity: 1000,
      unit_price: 35,
      setup_fee: 1500,
      subtotal: 36500,
      tax_rate: 19,
      tax: 6935,
      total: 43435,
      currency: 'EUR',
      production_days: 3,
    });
    expect(q.breakdown.map((line) => line.amount)).toEqual([25000, 5000, 0, 5000, 1500]);
    expect(q.breakdown[0]!.label).toBe('Base price: 1000 piece × 0.25 (tier from 1000 piece)');
  });

  it('uses base_price below the first tier and the highest tier whose min_qty ≤ quantity', () => {
    expect(quote(flyer, 99, { paper: 'std' }).unit_price).toBe(50);
    expect(quote(flyer, 100, { paper: 'std' }).unit_price).toBe(40);
    expect(quote(flyer, 999, { paper: 'std' }).unit_price).toBe(30);
    expect(applicableTier(flyer.price_tiers, 5000)?.min_qty).toBe(1000);
    expect(applicableTier(flyer.price_tiers, 1)).toBeUndefined();
  });

  it('applies defaults, optional options and the account tax rate', () => {
    const q = quote(flyer, 250, { paper: 'std', holes: 'two' }, { currency: 'CHF', tax_rate: 7.7 });
    // (0.40 + 0.02) × 250 + 15.00 = 120.00; tax 7.7 % = 9.24
    expect(q).toMatchObject({ unit_price: 42, subtotal: 12000, tax: 924, total: 12924, currency: 'CHF' });
    expect(q.breakdown.map((line) => line.label)).toEqual([
      'Base price: 250 piece × 0.40 (tier from 100 piece)',
      'Paper: Standard 90 g',
      'Finish: None',
      'Drill holes: Two holes (+0.02 × 250)',
      'Setup fee',
    ]);
  });

  it('answers quantity and option problems with the field and the valid values', () => {
    const below = priceProduct(flyer, { quantity: 49, options: { paper: 'std' } }, eur19);
    expect(below).toEqual({ ok: false, problems: [{ field: 'quantity', message: "must be at least 50 (the product's min_qty)" }] });
    const above = priceProduct(flyer, { quantity: 10_001, options: { paper: 'std' } }, eur19);
    expect(above.ok || above.problems[0]).toEqual({ field: 'quantity', message: "must be at most 10000 (the product's max_qty)" });
    const options = priceProduct(flyer, { quantity: 100, options: { colour: 'red', finish: 'shiny' } }, eur19);
    expect(options.ok || options.problems.map((p) => p.field).sort()).toEqual(['options.colour', 'options.finish', 'options.paper']);
    expect(options.ok || options.problems.find((p) => p.field === 'options.paper')?.message).toBe('Required; choose one of: std, gloss');
    expect(options.ok || options.problems.find((p) => p.field === 'options.finish')?.message).toBe(
      'Unknown value "shiny"; choose one of: none, matte',
    );
  });

  it('does not mistake inherited object properties for chosen options', () => {
    const product: PricingProduct = { ...flyer, options: [{ ...flyer.options[0]!, code: 'constructor' }] };
    const outcome = priceProduct(product, { quantity: 100, options: {} }, eur19);
    expect(outcome.ok || outcome.problems[0]?.field).toBe('options.constructor');
  });
});

// Generators of valid products (what the API accepts after productProblems).

const optionValue = fc.record({
  code: fc.constantFrom('a', 'b', 'c', 'd'),
  name: fc.constant('V'),
  price_delta: fc.integer({ min: -500, max: 5000 }),
  price_factor: fc.option(
    fc.integer({ min: 5000, max: 30000 }).map((scaled) => scaled / 10_000),
    { nil: null },
  ),
});

const option = fc.record({
  code: fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom('p', 'q', 'r', 's') }),
  name: fc.constant('O'),
  required: fc.boolean(),
  default: fc.constant(null),
  values: fc.uniqueArray(optionValue, { minLength: 1, maxLength: 4, selector: (value) => value.code }),
});

const product = fc
  .record({
    base_price: fc.integer({ min: 0, max: 100_000 }),
    tiers: fc.uniqueArray(fc.record({ min_qty: fc.integer({ min: 2, max: 5000 }), unit_price: fc.integer({ min: 0, max: 100_000 }) }), {
      maxLength: 5,
      selector: (t) => t.min_qty,
    }),
    options: fc.uniqueArray(option, { maxLength: 4, selector: (o) => o.code }),
    min_qty: fc.integer({ min: 1, max: 20 }),
    setup_fee: fc.integer({ min: 0, max: 100_000 }),
  })
  .map((p): PricingProduct => ({
    id: 1,
    unit: 'piece',
    min_qty: p.min_qty,
    max_qty: null,
    base_price: p.base_price,
    price_tiers: [...p.tiers].sort((a, b) => a.min_qty - b.min_qty),
    options: p.options,
    setup_fee: p.setup_fee,
    production_days: 1,
  }))
  .filter((p) => productProblems(p).length === 0);

/** A choice of one value for every option. */
const choice = (p: PricingProduct) =>
  fc
    .tuple(...p.options.map((o) => fc.constantFrom(...o.values.map((v) => v.code))))
    .map((codes) => Object.fromEntries(p.options.map((o, i) => [o.code, codes[i]!])));

const taxRate = fc.integer({ min: 0, max: 3000 }).map((hundredths) => hundredths / 100);

describe('product pricing (properties)', () => {
  it('never yields a negative amount; breakdown sums to the subtotal; total = subtotal + tax', () => {
    fc.assert(
      fc.property(
        product.chain((p) => fc.tuple(fc.constant(p), choice(p), fc.integer({ min: p.min_qty, max: 50_000 }), taxRate)),
        ([p, options, quantity, tax_rate]) => {
          const q = quote(p, quantity, options, { currency: 'EUR', tax_rate });
          expect(q.unit_price).toBeGreaterThanOrEqual(0);
          expect(q.tax).toBeGreaterThanOrEqual(0);
          expect(q.total).toBeGreaterThanOrEqual(0);
          expect(q.breakdown.reduce((sum, line) => sum + line.amount, 0)).toBe(q.subtotal);
          expect(q.subtotal).toBe(q.unit_price * quantity + p.setup_fee);
          expect(q.total).toBe(q.subtotal + q.tax);
          for (const amount of [q.unit_price, q.subtotal, q.tax, q.total]) expect(Number.isSafeInteger(amount)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rounds the unit price half-up exactly like exact rational arithmetic', () => {
    fc.assert(
      fc.property(
        product.chain((p) => fc.tuple(fc.constant(p), choice(p), fc.integer({ min: p.min_qty, max: 10_000 }))),
        ([p, options, quantity]) => {
          const tier = applicableTier(p.price_tiers, quantity);
          let pre = tier ? tier.unit_price : p.base_price;
          let numerator = 1n;
          let denominator = 1n;
          for (const o of p.options) {
            const value = o.values.find((v) => v.code === options[o.code])!;
            pre += value.price_delta;
            if (value.price_factor !== null) {
              numerator *= BigInt(Math.round(value.price_factor * 10_000));
              denominator *= 10_000n;
            }
          }
          const exact = BigInt(Math.max(pre, 0)) * numerator;
          // half-up: floor(exact / denominator + 1/2)
          const expected = (2n * exact + denominator) / (2n * denominator);
          expect(quote(p, quantity, options).unit_price).toBe(Number(expected));
        },
      ),
      { numRuns: 300 },
    );
  });

  /**
   * A monotone tier table: at every tier boundary b the new total is not below the total of b − 1
   * pieces at the previous unit price (unit_i × b ≥ unit_{i−1} × (b − 1)). Within such a table,
   * with non-negative option deltas, a larger quantity never costs less in total.
   */
  const monotone = fc
    .record({
      base: fc.integer({ min: 1, max: 10_000 }),
      boundaries: fc.uniqueArray(fc.integer({ min: 2, max: 2000 }), { maxLength: 6 }),
      cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
      delta: fc.integer({ min: 0, max: 500 }),
      setup: fc.integer({ min: 0, max: 5000 }),
    })
    .map(({ base, boundaries, cuts, delta, setup }): PricingProduct => {
      const tiers: { min_qty: number; unit_price: number }[] = [];
      let previous = base;
      [...boundaries]
        .sort((a, b) => a - b)
        .forEach((boundary, i) => {
          const lowest = Math.ceil((previous * (boundary - 1)) / boundary);
          const unit = lowest + Math.floor((previous - lowest) * cuts[i]!);
          tiers.push({ min_qty: boundary, unit_price: unit });
          previous = unit;
        });
      return {
        id: 1,
        unit: 'piece',
        min_qty: 1,
        max_qty: null,
        base_price: base,
        price_tiers: tiers,
        options: [
          {
            code: 'x',
            name: 'X',
            required: true,
            default: null,
            values: [{ code: 'v', name: 'V', price_delta: delta, price_factor: null }],
          },
        ],
        setup_fee: setup,
        production_days: 1,
      };
    });

  it('never charges less in total for a larger quantity within a monotone tier table', () => {
    fc.assert(
      fc.property(monotone, fc.integer({ min: 1, max: 2500 }), (p, quantity) => {
        const smaller = quote(p, quantity, { x: 'v' });
        const larger = quote(p, quantity + 1, { x: 'v' });
        expect(larger.subtotal).toBeGreaterThanOrEqual(smaller.subtotal);
        expect(larger.total).toBeGreaterThanOrEqual(smaller.total);
      }),
      { numRuns: 500 },
    );
  });
});

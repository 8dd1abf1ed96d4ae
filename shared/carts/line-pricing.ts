/**
 * Pricing every kind of line: product lines by the product formula (pricing.ts), legacy lines by
 * the lookup's rules (shared/legacy-products/lookup.ts) over the price item the catalogue read.
 * Apart from pricing.ts so that a bundle pricing product lines only (checkout) leaves the lookup out.
 */
import { cellProblems } from '#shared/legacy-products/lookup';
import { priceCartWith, priceKey, priceProductLine, type Catalogue, type LinePrice, type LineSpec, type PricedCart } from './pricing';
import type { CartRecord } from './stored';

/** Prices a legacy line as the lookup calculator does, with its field names (`format`, `color`, `quantity`, `pages`). */
export function priceLegacyLine(spec: Extract<LineSpec, { kind: 'legacy' }>, catalogue: Catalogue): LinePrice {
  const legacy = catalogue.legacy.get(spec.legacy_product_id);
  if (!legacy) {
    return {
      ok: false,
      name: null,
      problems: [{ field: 'legacy_product_id', message: `No legacy product with id ${spec.legacy_product_id}` }],
    };
  }
  const problems = cellProblems(legacy, spec).map((problem) =>
    problem.field === 'id' ? { field: 'legacy_product_id', message: problem.message } : problem,
  );
  if (problems.length) return { ok: false, name: legacy.name, problems };
  const price = catalogue.prices.get(priceKey(legacy.id, legacy.price_version, spec));
  if (price === undefined) {
    return { ok: false, name: legacy.name, problems: [{ field: 'quantity', message: 'No price for this combination' }], missingCell: true };
  }
  return {
    ok: true,
    name: legacy.name,
    unit_price: price,
    setup_fee: 0,
    options: {},
    price_version: legacy.price_version,
    tax_category: legacy.tax_category,
  };
}

/** Prices one line of either kind as the calculators do. */
export const priceLine = (spec: LineSpec, catalogue: Catalogue): LinePrice =>
  spec.kind === 'product' ? priceProductLine(spec, catalogue) : priceLegacyLine(spec, catalogue);

/** Prices every line of a cart. */
export const priceCart = (cart: Pick<CartRecord, 'items'>, catalogue: Catalogue): PricedCart => priceCartWith(cart, catalogue, priceLine);

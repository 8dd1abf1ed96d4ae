/**
 * Rules a whole product must satisfy, checked after a create or a merged update (so a PUT that
 * lowers max_qty below the stored min_qty is caught too). Pure; the service turns the problems
 * into a 422.
 */
import { sizeProblem } from '#shared/db/item-size';
import type { ErrorDetail } from '#shared/errors';
import { formatMinor } from '#shared/money';
import { cheapestPreFactorUnit, type PricingProduct } from '#shared/pricing/product-price';
import { storedProduct, type ProductRecord } from './stored';

/**
 * The most a product may take, stored and as JSON: half of DynamoDB's 400 KB item limit, so that
 * the item and every copy of its JSON (the idempotency record of a create keeps the answer) fit
 * with room to spare. The schema's maximums (20 options × 50 values with 100-character names,
 * 20 images of 2,000 characters, a 5,000-character description) would allow about 550 KB; a
 * real catalogue product takes a few kilobytes.
 */
export const MAX_PRODUCT_BYTES = 200 * 1024;

/** A product over MAX_PRODUCT_BYTES, named by its largest field (a 422, before anything is written). */
export function productSizeProblems(record: ProductRecord): ErrorDetail[] {
  const problem = sizeProblem('product', storedProduct.attributes(record, 'put'), storedProduct.view(record), MAX_PRODUCT_BYTES);
  return problem ? [problem] : [];
}

type Checked = Pick<PricingProduct, 'min_qty' | 'max_qty' | 'base_price' | 'price_tiers' | 'options'>;

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const value of values) (seen.has(value) ? repeated : seen).add(value);
  return [...repeated];
}

export function productProblems(product: Checked): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (product.max_qty !== null && product.max_qty < product.min_qty) {
    problems.push({ field: 'max_qty', message: `must be at least min_qty (${product.min_qty})` });
  }
  product.price_tiers.forEach((tier, index) => {
    const previous = product.price_tiers[index - 1];
    if (previous && tier.min_qty <= previous.min_qty) {
      problems.push({
        field: `price_tiers.${index}.min_qty`,
        message: `tiers must be in ascending min_qty order (previous tier starts at ${previous.min_qty})`,
      });
    }
  });
  for (const code of duplicates(product.options.map((option) => option.code))) {
    problems.push({ field: 'options', message: `option code "${code}" is used more than once` });
  }
  product.options.forEach((option, index) => {
    for (const code of duplicates(option.values.map((value) => value.code))) {
      problems.push({ field: `options.${index}.values`, message: `value code "${code}" is used more than once` });
    }
    if (option.default !== null && !option.values.some((value) => value.code === option.default)) {
      problems.push({
        field: `options.${index}.default`,
        message: `must be one of the option's value codes: ${option.values.map((v) => v.code).join(', ')}`,
      });
    }
  });
  if (problems.length === 0) {
    const cheapest = cheapestPreFactorUnit(product);
    if (cheapest < 0) {
      problems.push({
        field: 'options',
        message: `the cheapest combination of price tiers and option price_delta values gives a unit price of ${formatMinor(cheapest)}; unit prices must not be negative`,
      });
    }
  }
  return problems;
}

/**
 * Rules a whole product must satisfy, checked after a create or a merged update (so a PUT that
 * lowers max_qty below the stored min_qty is caught too). Pure; the service turns the problems
 * into a 422.
 */
import type { ErrorDetail } from '#shared/errors';
import { formatMinor } from '#shared/money';
import { cheapestPreFactorUnit, type PricingProduct } from '#shared/pricing/product-price';

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

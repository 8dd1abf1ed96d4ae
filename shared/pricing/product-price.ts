/**
 * The price of a product for a quantity and a choice of options — pure: no I/O, no clock, no
 * HTTP. All amounts are integer minor units; the formula is documented in docs/pricing.md:
 *
 *   tier        = the price tier with the highest min_qty ≤ quantity (none: base_price)
 *   pre_unit    = tier unit price (or base_price) + Σ price_delta of the chosen values   (≥ 0)
 *   unit_price  = round_half_up(pre_unit × Π price_factor of the chosen values)
 *   subtotal    = unit_price × quantity + setup_fee
 *   tax         = round_half_up(subtotal × tax_rate / 100)
 *   total       = subtotal + tax
 *
 * The breakdown lines sum to the subtotal exactly.
 */
import { divideHalfUp, formatMinor } from '#shared/money';
import { taxOn } from './tax';

export interface PricingOptionValue {
  code: string;
  name: string;
  /** Minor units per unit of quantity; may be negative (a cheaper paper). */
  price_delta: number;
  /** Multiplier with at most 4 decimals, or null. */
  price_factor: number | null;
}

export interface PricingOption {
  code: string;
  name: string;
  /** A required option without a default must be chosen; see docs/decisions.md. */
  required: boolean;
  /** Value code used when the option is not chosen. */
  default: string | null;
  values: PricingOptionValue[];
}

export interface PricingTier {
  min_qty: number;
  /** Minor units. */
  unit_price: number;
}

export interface PricingProduct {
  id: number;
  unit: string;
  min_qty: number;
  max_qty: number | null;
  base_price: number;
  /** Ascending by min_qty. */
  price_tiers: PricingTier[];
  options: PricingOption[];
  setup_fee: number;
  production_days: number;
}

export interface PricingContext {
  currency: string;
  /** Percent, at most 2 decimals (19 for 19 %). */
  tax_rate: number;
}

export interface PriceRequest {
  quantity: number;
  /** Option code → value code. */
  options: Record<string, string>;
}

export interface BreakdownLine {
  label: string;
  amount: number;
}

export interface PriceQuote {
  product_id: number;
  quantity: number;
  unit_price: number;
  setup_fee: number;
  subtotal: number;
  tax_rate: number;
  tax: number;
  total: number;
  currency: string;
  breakdown: BreakdownLine[];
  production_days: number;
}

export interface PriceProblem {
  field: string;
  message: string;
}

export type PriceOutcome = { ok: true; quote: PriceQuote } | { ok: false; problems: PriceProblem[] };

/** price_factor has at most 4 decimals: 1.15 is 11500 / 10000, so products of factors stay exact. */
export const FACTOR_SCALE = 10_000;

interface Chosen {
  option: PricingOption;
  value: PricingOptionValue;
}

/** The tier with the highest min_qty ≤ quantity, or undefined (then base_price applies). */
export function applicableTier(tiers: readonly PricingTier[], quantity: number): PricingTier | undefined {
  let found: PricingTier | undefined;
  for (const tier of tiers) if (tier.min_qty <= quantity && (!found || tier.min_qty > found.min_qty)) found = tier;
  return found;
}

const codesOf = (items: readonly { code: string }[]): string => items.map((item) => item.code).join(', ') || '(none)';

/** Resolves the requested option values against the product's options, defaults included. */
export function resolveOptions(
  product: Pick<PricingProduct, 'options'>,
  selection: Record<string, string>,
): { chosen: Chosen[]; problems: PriceProblem[] } {
  const problems: PriceProblem[] = [];
  const chosen: Chosen[] = [];
  for (const code of Object.keys(selection)) {
    if (!product.options.some((option) => option.code === code)) {
      problems.push({ field: `options.${code}`, message: `Unknown option; this product's options are: ${codesOf(product.options)}` });
    }
  }
  for (const option of product.options) {
    // Own properties only: an option coded `constructor` must not find Object.prototype's.
    const requested = Object.hasOwn(selection, option.code) ? selection[option.code] : undefined;
    const code = requested ?? option.default ?? undefined;
    if (code === undefined) {
      if (option.required)
        problems.push({ field: `options.${option.code}`, message: `Required; choose one of: ${codesOf(option.values)}` });
      continue;
    }
    const value = option.values.find((candidate) => candidate.code === code);
    if (!value) {
      problems.push({ field: `options.${option.code}`, message: `Unknown value "${code}"; choose one of: ${codesOf(option.values)}` });
      continue;
    }
    chosen.push({ option, value });
  }
  return { chosen, problems };
}

function quantityProblems(product: PricingProduct, quantity: number): PriceProblem[] {
  if (!Number.isSafeInteger(quantity) || quantity < 1) return [{ field: 'quantity', message: 'must be a positive integer' }];
  if (quantity < product.min_qty) return [{ field: 'quantity', message: `must be at least ${product.min_qty} (the product's min_qty)` }];
  if (product.max_qty !== null && quantity > product.max_qty) {
    return [{ field: 'quantity', message: `must be at most ${product.max_qty} (the product's max_qty)` }];
  }
  return [];
}

const factorText = (factor: number): string => `×${factor}`;

export function priceProduct(product: PricingProduct, request: PriceRequest, context: PricingContext): PriceOutcome {
  const { quantity } = request;
  const resolved = resolveOptions(product, request.options);
  const problems = [...quantityProblems(product, quantity), ...resolved.problems];
  if (problems.length) return { ok: false, problems };

  const qty = BigInt(quantity);
  const unitName = product.unit;
  const tier = applicableTier(product.price_tiers, quantity);
  const tierPrice = tier ? tier.unit_price : product.base_price;
  const breakdown: BreakdownLine[] = [];
  const line = (label: string, amount: bigint) => breakdown.push({ label, amount: Number(amount) });

  line(
    `Base price: ${quantity} ${unitName} × ${formatMinor(tierPrice)}${tier ? ` (tier from ${tier.min_qty} ${unitName})` : ''}`,
    BigInt(tierPrice) * qty,
  );
  let preUnit = BigInt(tierPrice);
  let factorProduct = 1n;
  let factorScale = 1n;
  const factorLabels: string[] = [];
  for (const { option, value } of resolved.chosen) {
    const delta = BigInt(value.price_delta);
    preUnit += delta;
    const deltaText =
      value.price_delta === 0 ? '' : ` (${value.price_delta > 0 ? '+' : ''}${formatMinor(value.price_delta)} × ${quantity})`;
    line(`${option.name}: ${value.name}${deltaText}`, delta * qty);
    if (value.price_factor !== null && value.price_factor !== 1) {
      factorProduct *= BigInt(Math.round(value.price_factor * FACTOR_SCALE));
      factorScale *= BigInt(FACTOR_SCALE);
      factorLabels.push(`${factorText(value.price_factor)} ${option.name}: ${value.name}`);
    }
  }
  // Product validation keeps the cheapest combination ≥ 0; this guard keeps the pure function total.
  if (preUnit < 0n) {
    line('Adjustment: a unit price cannot be negative', -preUnit * qty);
    preUnit = 0n;
  }
  const unit = divideHalfUp(preUnit * factorProduct, factorScale);
  if (factorLabels.length) line(`Option factors: ${factorLabels.join(', ')} (rounded per ${unitName})`, (unit - preUnit) * qty);
  const setupFee = BigInt(product.setup_fee);
  if (setupFee !== 0n) line('Setup fee', setupFee);

  const subtotal = unit * qty + setupFee;
  if (subtotal > BigInt(Number.MAX_SAFE_INTEGER) / 10_000n) {
    return { ok: false, problems: [{ field: 'quantity', message: 'the resulting price is too large to calculate' }] };
  }
  const tax = taxOn(Number(subtotal), context.tax_rate);
  return {
    ok: true,
    quote: {
      product_id: product.id,
      quantity,
      unit_price: Number(unit),
      setup_fee: product.setup_fee,
      subtotal: Number(subtotal),
      tax_rate: context.tax_rate,
      tax,
      total: Number(subtotal) + tax,
      currency: context.currency,
      breakdown,
      production_days: product.production_days,
    },
  };
}

/**
 * The cheapest unit price any allowed combination can reach before factors (factors are > 0,
 * so they cannot change the sign). Product writes refuse products where this is negative.
 */
export function cheapestPreFactorUnit(product: Pick<PricingProduct, 'base_price' | 'price_tiers' | 'options'>): number {
  const lowestBase = Math.min(product.base_price, ...product.price_tiers.map((tier) => tier.unit_price));
  let deltas = 0;
  for (const option of product.options) {
    const lowest = Math.min(...option.values.map((value) => value.price_delta));
    // An option that may be left out (not required, no default) can also contribute nothing.
    deltas += !option.required && option.default === null ? Math.min(lowest, 0) : lowest;
  }
  return lowestBase + deltas;
}

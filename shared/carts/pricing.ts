/**
 * Pricing a cart — pure: the lines are priced by the existing calculators (the product formula of
 * shared/pricing/product-price.ts, the legacy lookup's rules of shared/legacy-products/lookup.ts)
 * from what the repository read in one batch, and the cart's `version` is made of its stored
 * revision and a fingerprint of the prices it shows (docs/carts.md):
 *
 *   version = `<revision>.<fingerprint>`,  fingerprint = hash(currency, tax rate, per line: id, availability, unit price, setup fee)
 *
 * so a read changes nothing stored, and yet a client that read changed prices holds a version
 * that checkout accepts, while one that read the old prices does not.
 */
import { createHash } from 'node:crypto';
import type { Account } from '#shared/accounts/stored';
import { accountTaxSettings } from '#shared/accounts/tax';
import type { ErrorDetail } from '#shared/errors';
import type { LegacyProductRecord } from '#shared/legacy-products/stored';
import { fromMinor } from '#shared/money';
import { priceProduct, resolveOptions, type PricingContext } from '#shared/pricing/product-price';
import type { AppliedTaxCategory, TaxBreakdownEntry, TaxCategory, TaxRates } from '#shared/tax/categories';
import { lineTax, saleTaxes } from '#shared/tax/sale';
import type { ProductRecord } from '#shared/products/stored';
import type { CartLineRecord, CartRecord } from './stored';

/** What pricing a cart needs, read at once (repository.ts `readCatalogue`). */
export interface Catalogue {
  products: ReadonlyMap<number, ProductRecord>;
  legacy: ReadonlyMap<number, LegacyProductRecord>;
  /** Legacy prices (minor units) by `priceKey`. */
  prices: ReadonlyMap<string, number>;
  /** The account's currency, standard rate (`tax_rate`) and rates per category. */
  pricing: PricingContext & { rates: TaxRates };
}

/** The pricing of a catalogue from the account read with it (none: EUR at the default rates). */
export function cataloguePricing(
  account: Pick<Account, 'currency' | 'tax_rate' | 'tax_rates' | 'shipping_tax_category'> | undefined,
): Catalogue['pricing'] {
  const { rates } = accountTaxSettings(account);
  return { currency: account?.currency ?? 'EUR', tax_rate: rates.standard, rates };
}

export interface LegacyCell {
  format: string;
  color: string;
  quantity: number;
  pages: number;
}

export const priceKey = (id: number, version: number, cell: LegacyCell): string =>
  JSON.stringify([id, version, cell.format, cell.color, cell.quantity, cell.pages]);

/** What a line asks for: a product with options, or a legacy product's cell. */
export type LineSpec =
  | { kind: 'product'; product_id: number; quantity: number; options: Record<string, string> }
  | ({ kind: 'legacy'; legacy_product_id: number } & LegacyCell);

export type LinePrice =
  | {
      ok: true;
      name: string;
      unit_price: number;
      setup_fee: number;
      options: Record<string, string>;
      price_version: number;
      /** The product's declared tax category. */
      tax_category: TaxCategory;
    }
  /** `missingCell`: every value is listed, but the table has no price for the combination. */
  | { ok: false; name: string | null; problems: ErrorDetail[]; missingCell?: boolean };

export const specOf = (line: CartLineRecord): LineSpec =>
  line.kind === 'product'
    ? { kind: 'product', product_id: line.product_id!, quantity: line.quantity, options: line.options }
    : {
        kind: 'legacy',
        legacy_product_id: line.legacy_product_id!,
        format: line.format!,
        color: line.color!,
        quantity: line.quantity,
        pages: line.pages!,
      };

/** A line pricer: the product formula for product lines, and the lookup for legacy lines where the caller needs them. */
export type LinePricer = (spec: LineSpec, catalogue: Catalogue) => LinePrice;

/** Prices a product line as the product calculator does, with its field names (`quantity`, `options.paper`…). */
export function priceProductLine(spec: Extract<LineSpec, { kind: 'product' }>, catalogue: Catalogue): LinePrice {
  const product = catalogue.products.get(spec.product_id);
  if (!product) return { ok: false, name: null, problems: [{ field: 'product_id', message: `No product with id ${spec.product_id}` }] };
  if (!product.is_active) {
    return {
      ok: false,
      name: product.name,
      problems: [{ field: 'product_id', message: `Product ${product.id} is archived (is_active is false) and cannot be ordered` }],
    };
  }
  const outcome = priceProduct(product, { quantity: spec.quantity, options: spec.options }, catalogue.pricing);
  if (!outcome.ok) return { ok: false, name: product.name, problems: outcome.problems };
  const chosen = resolveOptions(product, spec.options).chosen;
  return {
    ok: true,
    name: product.name,
    unit_price: outcome.quote.unit_price,
    setup_fee: outcome.quote.setup_fee,
    options: Object.fromEntries(chosen.map(({ option, value }) => [option.code, value.code])),
    price_version: 0,
    tax_category: product.tax_category,
  };
}

/** A line as a cart shows it: what was asked, the current price, and how it compares with the price held. */
export interface PricedLine {
  line: CartLineRecord;
  name: string | null;
  available: boolean;
  /** Why it cannot be bought now (unavailable lines). */
  reason: string | null;
  unit_price: number;
  setup_fee: number;
  total: number;
  price_changed: boolean;
  /** Applied: the product's category at the account's rate (a cart has no billing address: the seller's domestic VAT). */
  tax_category: AppliedTaxCategory;
  tax_rate: number;
}

export interface PricedCart {
  lines: PricedLine[];
  subtotal: number;
  taxes: TaxBreakdownEntry[];
  tax: number;
  total: number;
  fingerprint: string;
}

/** A product line costs quantity × unit price + setup fee; a legacy line's price is the whole run's. */
const lineTotal = (line: CartLineRecord, unitPrice: number, setupFee: number): number =>
  line.kind === 'legacy' ? unitPrice : unitPrice * line.quantity + setupFee;

export function priceCartWith(cart: Pick<CartRecord, 'items'>, catalogue: Catalogue, priceLine: LinePricer): PricedCart {
  const lines = cart.items.map((line): PricedLine => {
    const price = priceLine(specOf(line), catalogue);
    if (!price.ok) {
      return {
        line,
        name: price.name,
        available: false,
        reason: price.problems.map((problem) => `${problem.field}: ${problem.message}`).join('; '),
        unit_price: line.unit_price,
        setup_fee: line.setup_fee,
        total: 0,
        price_changed: false,
        tax_category: 'standard',
        tax_rate: catalogue.pricing.rates.standard,
      };
    }
    const applied = lineTax(price.tax_category, 'domestic', catalogue.pricing.rates);
    return {
      line,
      name: price.name,
      available: true,
      reason: null,
      unit_price: price.unit_price,
      setup_fee: price.setup_fee,
      total: lineTotal(line, price.unit_price, price.setup_fee),
      price_changed: price.unit_price !== line.unit_price || price.setup_fee !== line.setup_fee,
      tax_category: applied.category,
      tax_rate: applied.rate,
    };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.total, 0);
  // Unavailable lines cost nothing and are taxed nothing: only the available ones are in the breakdown.
  const { taxes, tax } = saleTaxes(
    lines
      .filter((line) => line.available)
      .map((line) => ({ tax_category: line.tax_category, tax_rate: line.tax_rate, amount: line.total })),
  );
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        catalogue.pricing.currency,
        catalogue.pricing.tax_rate,
        lines.map((line) => [line.line.id, line.available, line.unit_price, line.setup_fee]),
      ]),
    )
    .digest('base64url')
    .slice(0, 12);
  return { lines, subtotal, taxes, tax, total: subtotal + tax, fingerprint };
}

/** The version a client sees and sends back at checkout. */
export const versionOf = (revision: number, fingerprint: string): string => `${revision}.${fingerprint}`;

/** The revision part of a version a client sent (undefined when it is not one of ours). */
export function revisionOf(version: string): number | undefined {
  const match = /^(\d{1,15})\.[\w-]{12}$/.exec(version);
  return match ? Number(match[1]) : undefined;
}

/** What a changed line's detail says, for a 409 that lists them. */
export const changeMessage = (priced: PricedLine): string =>
  `price changed: unit price ${fromMinor(priced.line.unit_price)} → ${fromMinor(priced.unit_price)}` +
  (priced.setup_fee !== priced.line.setup_fee ? `, setup fee ${fromMinor(priced.line.setup_fee)} → ${fromMinor(priced.setup_fee)}` : '');

/**
 * Order lines and totals — pure: the server computes every amount, whatever the client sends
 * (only a line's `unit_price` may be given, as a manual price). Minor units throughout.
 *
 *   line (product-priced) = the product calculation: unit_price × quantity + setup_fee
 *   line (manual price)   = unit_price × quantity (the agreed price; no setup fee)
 *   line (legacy product) = the table's price of the whole run (`unit_price` holds it; `price_source: table`)
 *   subtotal = Σ line totals;  tax = round_half_up((subtotal + shipping) × tax_rate / 100)
 *   total    = subtotal + shipping + tax
 */
import type { ErrorDetail } from '#shared/errors';
import { MAX_TOTAL_MINOR } from '#shared/money';
import { priceProduct, resolveOptions, type PricingContext } from '#shared/pricing/product-price';
import { taxOn } from '#shared/pricing/tax';
import type { LegacyCellRequest, LegacyLinePrice } from '#shared/legacy-products/line-prices';
import type { ProductRecord } from '#shared/products/stored';
import type { OrderLineRecord } from './stored';
import type { OrderLineInput } from './schema';

/** 1,000,000,000.00 in minor units (shared/money.ts). */
export const MAX_ORDER_AMOUNT = MAX_TOTAL_MINOR;

export interface PricedLines {
  lines: OrderLineRecord[];
  problems: ErrorDetail[];
}

export function priceLines(
  inputs: readonly OrderLineInput[],
  products: ReadonlyMap<number, ProductRecord>,
  context: PricingContext,
  field = 'items',
  /** The legacy lines' prices by line index (shared/legacy-products/line-prices.ts). */
  legacy: ReadonlyMap<number, LegacyLinePrice> = new Map(),
): PricedLines {
  const lines: OrderLineRecord[] = [];
  const problems: ErrorDetail[] = [];
  inputs.forEach((input, index) => {
    const at = `${field}.${index}`;
    if (input.legacy_product_id !== undefined) {
      const priced = legacy.get(index);
      if (!priced || !priced.ok) {
        problems.push(
          ...(priced && !priced.ok ? priced.problems : [{ field: 'legacy_product_id', message: 'not priced' }]).map((problem) => ({
            field: `${at}.${problem.field}`,
            message: problem.message,
          })),
        );
        return;
      }
      // The table prices the whole run: `unit_price` is the run's price (or the manual one, per copy).
      const manual = input.unit_price !== undefined;
      lines.push({
        id: index + 1,
        product_id: null,
        legacy: { legacy_product_id: input.legacy_product_id, format: input.format!, color: input.color!, pages: input.pages! },
        description: input.description ?? `${priced.name}, ${input.format} ${input.color}, ${input.pages} pages`,
        quantity: input.quantity,
        unit_price: manual ? input.unit_price! : priced.price,
        setup_fee: 0,
        price_source: manual ? 'manual' : 'table',
        options: {},
        file_ids: input.file_ids,
        files: [],
        total: manual ? input.unit_price! * input.quantity : priced.price,
        hs_code: input.hs_code ?? null,
        origin_country: input.origin_country ?? null,
        customs_description: input.customs_description ?? null,
      });
      return;
    }
    const productId = input.product_id!;
    const product = products.get(productId);
    if (!product) {
      problems.push({ field: `${at}.product_id`, message: `No product with id ${productId}` });
      return;
    }
    if (!product.is_active) {
      problems.push({ field: `${at}.product_id`, message: `Product ${product.id} is archived (is_active is false) and cannot be ordered` });
      return;
    }
    // Quantity limits and options are checked for manual prices too: they describe what is printed.
    const outcome = priceProduct(product, { quantity: input.quantity, options: input.options }, context);
    if (!outcome.ok) {
      problems.push(...outcome.problems.map((problem) => ({ field: `${at}.${problem.field}`, message: problem.message })));
      return;
    }
    const manual = input.unit_price !== undefined;
    const unitPrice = manual ? input.unit_price! : outcome.quote.unit_price;
    const setupFee = manual ? 0 : outcome.quote.setup_fee;
    const chosen = resolveOptions(product, input.options).chosen;
    lines.push({
      id: index + 1,
      product_id: product.id,
      legacy: null,
      description: input.description ?? product.name,
      quantity: input.quantity,
      unit_price: unitPrice,
      setup_fee: setupFee,
      price_source: manual ? 'manual' : 'product',
      options: Object.fromEntries(chosen.map(({ option, value }) => [option.code, value.code])),
      file_ids: input.file_ids,
      // Copies of the files, once they are checked (shared/files/line-files.ts).
      files: [],
      total: unitPrice * input.quantity + setupFee,
      // Customs: the line's own, else the product's (docs/shipping.md#customs).
      hs_code: input.hs_code ?? product.hs_code ?? null,
      origin_country: input.origin_country ?? product.origin_country ?? null,
      customs_description: input.customs_description ?? product.customs_description ?? null,
    });
  });
  const sum = lines.reduce((total, line) => total + line.total, 0);
  if (problems.length === 0 && sum > MAX_ORDER_AMOUNT) {
    problems.push({ field, message: `the order's lines add up to more than ${MAX_ORDER_AMOUNT / 100}; split the order` });
  }
  return { lines, problems };
}

/** The legacy cells the lines ask for, by index (undefined for product lines): what priceLegacyLines reads. */
export const legacyCellsOf = (inputs: readonly OrderLineInput[]): (LegacyCellRequest | undefined)[] =>
  inputs.map((input) =>
    input.legacy_product_id === undefined
      ? undefined
      : {
          legacy_product_id: input.legacy_product_id,
          format: input.format!,
          color: input.color!,
          quantity: input.quantity,
          pages: input.pages!,
        },
  );

/** The product ids the lines name (legacy lines name none). */
export const inputProductIds = (inputs: readonly OrderLineInput[]): number[] =>
  inputs.flatMap((input) => (input.product_id === undefined ? [] : [input.product_id]));

export interface OrderTotals {
  subtotal: number;
  tax: number;
  total: number;
}

/** Tax is rounded once, on the whole taxable amount (lines and shipping), as in docs/pricing.md. */
export function orderTotals(lines: readonly Pick<OrderLineRecord, 'total'>[], shipping: number, taxRate: number): OrderTotals {
  const subtotal = lines.reduce((sum, line) => sum + line.total, 0);
  const tax = taxOn(subtotal + shipping, taxRate);
  return { subtotal, tax, total: subtotal + shipping + tax };
}

/** One line per product (several lines may name the same product), for stock reservations; legacy runs hold no stock. */
export const stockLinesOf = (lines: readonly Pick<OrderLineRecord, 'product_id' | 'quantity'>[]) =>
  lines.flatMap((line) => (line.product_id === null ? [] : [{ product_id: line.product_id, quantity: line.quantity }]));

/** Distinct product ids of the lines: each counts one order reference on its product (legacy lines name none). */
export const productIdsOf = (lines: readonly Pick<OrderLineRecord, 'product_id'>[]): number[] => [
  ...new Set(lines.flatMap((line) => (line.product_id === null ? [] : [line.product_id]))),
];

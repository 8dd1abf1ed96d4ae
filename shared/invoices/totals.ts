/**
 * An invoice's amounts, in integer minor units:
 *
 *   line amount   = round_half_up(quantity × unit_price)          (order lines: the order's line total,
 *                                                                    setup fee included)
 *   subtotal      = Σ line amounts
 *   per category and rate : taxable = Σ its line amounts (+ shipping, a line of its category)
 *                           tax     = round_half_up(taxable × rate / 100)   (once per group, never per line)
 *   tax           = Σ tax per group
 *   total         = subtotal + shipping + tax
 *
 * Rounding the tax once per rate is what EN 16931 expects (BR-CO-14/BR-S-09: the VAT of a
 * category is its taxable amount × rate), and for an order with one rate it gives the order's own
 * figures (shared/orders/lines.ts rounds once on subtotal + shipping).
 */
import type { ErrorDetail } from '#shared/errors';
import { divideHalfUp, MAX_TOTAL_MINOR } from '#shared/money';
import type { AppliedTaxCategory, TaxBreakdownEntry } from '#shared/tax/categories';
import { saleTaxes } from '#shared/tax/sale';

/** Quantities are kept with up to 3 decimals (1.5 hours of design work): in thousandths. */
const QUANTITY_SCALE = 1000n;

/** Net amount of `quantity` units at `unitPrice` (minor units), rounded half-up. */
export function lineAmount(quantity: number, unitPrice: number): number {
  const thousandths = BigInt(Math.round(quantity * 1000));
  return Number(divideHalfUp(thousandths * BigInt(unitPrice), QUANTITY_SCALE));
}

export interface TaxGroup {
  tax_rate: number;
  taxable_amount: number;
  tax: number;
}

export interface InvoiceTotals {
  subtotal: number;
  taxes: TaxBreakdownEntry[];
  /** Deprecated in favour of `taxes`: the same groups merged per rate. */
  tax_breakdown: TaxGroup[];
  tax: number;
  total: number;
}

/** The deprecated per-rate view of a breakdown (categories of one rate merged), highest rate first. */
export function perRate(taxes: readonly TaxBreakdownEntry[]): TaxGroup[] {
  const groups = new Map<number, TaxGroup>();
  for (const entry of taxes) {
    const group = groups.get(entry.rate) ?? { tax_rate: entry.rate, taxable_amount: 0, tax: 0 };
    group.taxable_amount += entry.taxable_amount;
    group.tax += entry.tax_amount;
    groups.set(entry.rate, group);
  }
  return [...groups.values()].sort((a, b) => b.tax_rate - a.tax_rate);
}

/** The totals of lines (each with its net `amount`, applied category and rate) and the shipping, a line of its own. */
export function invoiceTotals(
  lines: readonly { amount: number; tax_category: AppliedTaxCategory; tax_rate: number }[],
  shipping: { amount: number; tax_category: AppliedTaxCategory; tax_rate: number },
): InvoiceTotals {
  const { taxes, tax } = saleTaxes(lines, shipping);
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  return { subtotal, taxes, tax_breakdown: perRate(taxes), tax, total: subtotal + shipping.amount + tax };
}

/**
 * What is wrong with free lines' amounts: each line and their sum stay within MAX_TOTAL_MINOR
 * (the edge bounds quantity and unit price, each up to a million, not their product; 200 lines of
 * 10^14 minor units would leave exact integers). Empty when they are in range.
 */
export function lineAmountProblems(lines: readonly { amount: number }[], field = 'items'): ErrorDetail[] {
  const limit = `more than ${MAX_TOTAL_MINOR / 100}`;
  const each = lines.flatMap((line, index) =>
    line.amount > MAX_TOTAL_MINOR ? [{ field: `${field}.${index}`, message: `quantity × unit_price is ${limit}` }] : [],
  );
  if (each.length) return each;
  const sum = lines.reduce((total, line) => total + line.amount, 0);
  return sum > MAX_TOTAL_MINOR ? [{ field, message: `the lines add up to ${limit}; split the invoice` }] : [];
}

/** What the customer still owes: total − amount_paid − amount_credited, never below 0 (docs/invoices.md). */
export const amountDue = (total: number, paid: number, credited: number): number => Math.max(0, total - paid - credited);

/** Paid beyond what is owed after the credit notes, not refunded yet. */
export const refundDue = (invoice: { total: number; amount_paid: number; amount_credited: number; amount_refunded: number }): number =>
  Math.max(0, invoice.amount_paid + invoice.amount_credited - invoice.total) - invoice.amount_refunded;

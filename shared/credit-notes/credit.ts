/**
 * What a credit note credits, from the invoice and the request — pure. Without `items` and
 * `shipping` it credits everything still uncredited; otherwise each item names an invoice line by
 * its position and credits either a `quantity` of it (at its unit price; the line's whole remaining
 * quantity credits exactly its remaining amount) or a net `amount` (a price reduction, no
 * quantity), and `shipping` a net amount of the shipping. Never more than what is still uncredited,
 * per line and in total (shared/invoices/credits.ts keeps what was credited).
 *
 * Tax per rate is the invoice's tax at that rate in proportion to the taxable amount credited so
 * far: tax = round(X × A / T) − round(X × B / T), with T and X the invoice's taxable amount and
 * tax at the rate, B the taxable credited before and A after this credit note. Credit notes thus
 * add up to exactly the invoice's tax when everything is credited, never more, and each stays
 * within a cent or two of taxable × rate (EN 16931 tolerates ±1.00 in BR-S-09 and BR-CO-17).
 */
import { ValidationError, type ErrorDetail } from '#shared/errors';
import { formatMinor, divideHalfUp } from '#shared/money';
import { creditedTaxable, taxGroupKey, uncredited } from '#shared/invoices/credits';
import type { AppliedTaxCategory } from '#shared/tax/categories';
import type { InvoiceRecord } from '#shared/invoices/stored';
import { lineAmount } from '#shared/invoices/totals';
import type { CreditNoteCreateInput } from './schema';
import type { CreditNoteLineRecord, CreditNoteRecord } from './stored';

export type CreditPlan = Pick<
  CreditNoteRecord,
  'items' | 'subtotal' | 'shipping' | 'shipping_tax_category' | 'shipping_tax_rate' | 'taxes' | 'tax' | 'total'
>;

const proportion = (tax: number, part: number, whole: number): number =>
  whole === 0 ? 0 : Number(divideHalfUp(BigInt(tax) * BigInt(part), BigInt(whole)));

interface CreditedGroup {
  category: AppliedTaxCategory;
  rate: number;
  amount: number;
}

/** The tax of `taxable` (net per category and rate) credited now, in proportion to the invoice's (see above). */
function creditTax(invoice: InvoiceRecord, taxable: Map<string, CreditedGroup>): CreditPlan['taxes'] {
  const before = creditedTaxable(invoice);
  return [...taxable.entries()]
    .filter(([, group]) => group.amount > 0)
    .map(([key, { category, rate, amount }]) => {
      const group = invoice.taxes.find((candidate) => taxGroupKey(candidate.category, candidate.rate) === key);
      const whole = group?.taxable_amount ?? 0;
      const tax = group?.tax_amount ?? 0;
      const done = before.get(key) ?? 0;
      return { category, rate, taxable_amount: amount, tax_amount: proportion(tax, done + amount, whole) - proportion(tax, done, whole) };
    })
    .sort((a, b) => b.rate - a.rate);
}

/** The lines, shipping and amounts `input` credits of `invoice`; 422 naming the field that asks for more than is uncredited. */
export function planCredit(invoice: InvoiceRecord, input: CreditNoteCreateInput): CreditPlan {
  const left = uncredited(invoice);
  const byPosition = new Map(invoice.items.map((line) => [line.position, line]));
  const problems: ErrorDetail[] = [];
  const lines: Omit<CreditNoteLineRecord, 'position'>[] = [];
  let shipping = 0;
  const whole = input.items === undefined && input.shipping === undefined;
  if (whole) {
    for (const line of invoice.items) {
      const rest = left.lines.get(line.position)!;
      if (rest.amount <= 0) continue;
      lines.push({
        invoice_position: line.position,
        description: line.description,
        quantity: rest.quantity > 0 ? rest.quantity : 1,
        unit_price: rest.quantity > 0 ? line.unit_price : rest.amount,
        tax_category: line.tax_category,
        tax_rate: line.tax_rate,
        tax_exemption_reason: line.tax_exemption_reason,
        amount: rest.amount,
        quantity_credited: rest.quantity,
      });
    }
    shipping = left.shipping;
  } else {
    const seen = new Set<number>();
    (input.items ?? []).forEach((item, index) => {
      const field = `items.${index}`;
      const line = byPosition.get(item.position);
      if (!line)
        return problems.push({ field: `${field}.position`, message: `invoice ${invoice.invoice_number} has no line ${item.position}` });
      if (seen.has(item.position)) return problems.push({ field: `${field}.position`, message: `line ${item.position} is named twice` });
      seen.add(item.position);
      const rest = left.lines.get(item.position)!;
      if (item.quantity !== undefined) {
        if (item.quantity > rest.quantity) {
          return problems.push({
            field: `${field}.quantity`,
            message: `must be at most ${rest.quantity} (line ${item.position}'s uncredited quantity)`,
          });
        }
        const amount = item.quantity === rest.quantity ? rest.amount : lineAmount(item.quantity, line.unit_price);
        if (amount > rest.amount) {
          return problems.push({
            field: `${field}.quantity`,
            message: `credits ${formatMinor(amount)}, more than the ${formatMinor(rest.amount)} of line ${item.position} still uncredited`,
          });
        }
        return lines.push({
          invoice_position: line.position,
          description: line.description,
          quantity: item.quantity,
          unit_price: line.unit_price,
          tax_category: line.tax_category,
          tax_rate: line.tax_rate,
          tax_exemption_reason: line.tax_exemption_reason,
          amount,
          quantity_credited: item.quantity,
        });
      }
      const amount = item.amount!;
      if (amount > rest.amount) {
        return problems.push({
          field: `${field}.amount`,
          message: `must be at most ${formatMinor(rest.amount)} (line ${item.position}'s uncredited amount)`,
        });
      }
      return lines.push({
        invoice_position: line.position,
        description: `Price reduction: ${line.description}`.slice(0, 500),
        quantity: 1,
        unit_price: amount,
        tax_category: line.tax_category,
        tax_rate: line.tax_rate,
        tax_exemption_reason: line.tax_exemption_reason,
        amount,
        quantity_credited: 0,
      });
    });
    if (input.shipping !== undefined) {
      if (input.shipping > left.shipping) {
        problems.push({ field: 'shipping', message: `must be at most ${formatMinor(left.shipping)} (the shipping still uncredited)` });
      } else shipping = input.shipping;
    }
  }
  if (problems.length) throw new ValidationError('The credit note asks for more than the invoice has uncredited', problems);
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  if (subtotal + shipping === 0) {
    throw new ValidationError('The credit note credits nothing', [
      { field: whole ? 'items' : 'items', message: 'must credit an amount above 0' },
    ]);
  }
  const taxable = new Map<string, CreditedGroup>();
  const add = (category: AppliedTaxCategory, rate: number, amount: number) => {
    const key = taxGroupKey(category, rate);
    const group = taxable.get(key) ?? { category, rate, amount: 0 };
    taxable.set(key, { ...group, amount: group.amount + amount });
  };
  for (const line of lines) add(line.tax_category, line.tax_rate, line.amount);
  if (shipping > 0) add(invoice.shipping_tax_category, invoice.shipping_tax_rate, shipping);
  const taxes = creditTax(invoice, taxable);
  const tax = taxes.reduce((sum, group) => sum + group.tax_amount, 0);
  const total = subtotal + shipping + tax;
  // Cannot happen (the proportional tax never passes the invoice's): checked, not assumed.
  if (total > left.total) {
    throw new ValidationError('The credit note asks for more than the invoice has uncredited', [
      { field: 'items', message: `credits ${formatMinor(total)}, more than the ${formatMinor(left.total)} still uncredited` },
    ]);
  }
  return {
    items: lines.map((line, index) => ({ position: index + 1, ...line })),
    subtotal,
    shipping,
    shipping_tax_category: invoice.shipping_tax_category,
    shipping_tax_rate: invoice.shipping_tax_rate,
    taxes,
    tax,
    total,
  };
}

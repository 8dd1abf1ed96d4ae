/**
 * The invoice's side of credit notes and refunds: what is still uncredited (per line, shipping, in
 * total), the amounts a credit or a refund moves, and the one write to the invoice item that moves
 * them — built here, as orders build every write to an order item (shared/orders/transitions.ts),
 * and joined by shared/credit-notes/ to the credit note's own transaction. The update is
 * conditional on the version read and on the amounts credited (or refunded) still being the ones
 * read, so two credit notes racing for the same invoice cannot both commit: the loser reads again
 * and finds less left to credit.
 *
 * amount_due = max(0, total − amount_paid − amount_credited). A paid invoice that is credited owes
 * the customer a refund: refund_due = max(0, amount_paid + amount_credited − total) − amount_refunded.
 */
import type { Tenant } from '#shared/auth/principal';
import type { AppliedTaxCategory } from '#shared/tax/categories';
import type { TransactionPart } from '#shared/db/table';
import { VersionConflict } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { invoiceUpdated } from './events';
import { present, type Invoice } from './present';
import { isUnpaid, type InvoiceStatus } from './status';
import { amountDue } from './totals';
import { invoiceUpdate, orderInvoiceMarkDelete, type InvoiceCreditedLineRecord, type InvoiceRecord } from './stored';

/** What of one invoice line is still uncredited. */
export interface UncreditedLine {
  position: number;
  quantity: number;
  amount: number;
}

/** What of the invoice is still uncredited: each line (by position), the shipping, and the gross total. */
export interface Uncredited {
  lines: Map<number, UncreditedLine>;
  shipping: number;
  total: number;
}

/** Quantities keep 3 decimals: subtracting them in floating point must not leave 0.30000000000000004. */
const quantity = (value: number): number => Math.round(value * 1000) / 1000;

export function uncredited(invoice: InvoiceRecord): Uncredited {
  const credited = new Map(invoice.credited_items.map((line) => [line.position, line]));
  const lines = new Map<number, UncreditedLine>();
  for (const line of invoice.items) {
    const done = credited.get(line.position);
    lines.set(line.position, {
      position: line.position,
      quantity: quantity(line.quantity - (done?.quantity ?? 0)),
      amount: line.amount - (done?.amount ?? 0),
    });
  }
  return { lines, shipping: invoice.shipping - invoice.shipping_credited, total: invoice.total - invoice.amount_credited };
}

/** The taxable amount already credited at each rate (the lines' rates, the shipping's). */
export function creditedTaxable(invoice: InvoiceRecord): Map<string, number> {
  const groupOf = new Map(invoice.items.map((line) => [line.position, taxGroupKey(line.tax_category, line.tax_rate)]));
  const taxable = new Map<string, number>();
  const add = (key: string, amount: number) => taxable.set(key, (taxable.get(key) ?? 0) + amount);
  for (const line of invoice.credited_items) add(groupOf.get(line.position) ?? taxGroupKey('standard', 0), line.amount);
  if (invoice.shipping_credited > 0) add(taxGroupKey(invoice.shipping_tax_category, invoice.shipping_tax_rate), invoice.shipping_credited);
  return taxable;
}

/** The key of a tax group: one per applied category and rate, as the invoice's `taxes`. */
export const taxGroupKey = (category: AppliedTaxCategory, rate: number): string => `${category}:${rate}`;

/** One credit note as the invoice records it. */
export interface Credit {
  id: number;
  credit_note_number: string;
  /** Gross. */
  total: number;
  issued_at: string;
  /** Per invoice line: the quantity and net amount this credit note credits. */
  lines: { position: number; quantity: number; amount: number }[];
  /** Net shipping credited. */
  shipping: number;
}

/** Open and sent invoices settle when nothing is due: `paid` if money came in, else `credited`. */
function statusAfter(before: InvoiceRecord, due: number): InvoiceStatus {
  if (!isUnpaid(before.status) || due > 0) return before.status;
  return before.amount_paid > 0 ? 'paid' : 'credited';
}

/**
 * The invoice after `credit`, and its part of the credit note's transaction: its update
 * (conditional on the version and the amount credited that were read), the order's mark removed
 * when the invoice is wholly credited (the order may then be invoiced again, as after a void), and
 * `invoice.updated`. Throws nothing: the credit note service has checked the amounts against
 * `uncredited` already.
 */
export function invoiceCreditParts(
  tenant: Tenant,
  before: InvoiceRecord,
  credit: Credit,
  now: Date,
): { after: InvoiceRecord; view: Invoice; parts: TransactionPart[] } {
  const at = now.toISOString();
  const lines = new Map<number, InvoiceCreditedLineRecord>(before.credited_items.map((line) => [line.position, { ...line }]));
  for (const line of credit.lines) {
    const done = lines.get(line.position) ?? { position: line.position, quantity: 0, amount: 0 };
    lines.set(line.position, {
      position: line.position,
      quantity: quantity(done.quantity + line.quantity),
      amount: done.amount + line.amount,
    });
  }
  const amountCredited = before.amount_credited + credit.total;
  const due = amountDue(before.total, before.amount_paid, amountCredited);
  const status = statusAfter(before, due);
  const after: InvoiceRecord = {
    ...before,
    status,
    amount_credited: amountCredited,
    amount_due: due,
    credited_items: [...lines.values()].sort((a, b) => a.position - b.position),
    shipping_credited: before.shipping_credited + credit.shipping,
    credit_notes: [
      ...before.credit_notes,
      { id: credit.id, credit_note_number: credit.credit_note_number, total: credit.total, issued_at: credit.issued_at },
    ],
    paid_at: status === 'paid' && before.status !== 'paid' ? at : before.paid_at,
    updated_at: at,
    version: before.version + 1,
  };
  const view = present(after, now);
  const [update, ...moves] = invoiceUpdate(tenant, before, after, {
    condition:
      before.amount_credited === 0 ? '(attribute_not_exists(#credited) OR #credited = :creditedBefore)' : '#credited = :creditedBefore',
    names: { '#credited': 'amount_credited' },
    values: { ':creditedBefore': before.amount_credited },
  });
  const parts: TransactionPart[] = [
    { item: update!, onConditionFailure: () => new VersionConflict('invoice') },
    ...moves.map((item) => ({ item, onConditionFailure: () => new VersionConflict('invoice') })),
  ];
  const wholly = amountCredited >= before.total;
  if (wholly && before.order_id !== null) {
    // The mark may be gone already (never written for old invoices): a failed condition is a race, read again.
    parts.push({
      item: orderInvoiceMarkDelete(tenant, before.order_id, before.id),
      onConditionFailure: () => new VersionConflict('invoice'),
    });
  }
  parts.push({
    item: eventPut(tenant, invoiceUpdated, { invoice: view }, now).item,
    onConditionFailure: () => new VersionConflict('invoice'),
  });
  return { after, view, parts };
}

/**
 * The invoice after a refund of `amount` (checked against `refundDue` by the caller), and its part
 * of the refund's transaction: the update, conditional on the version and the amount refunded that
 * were read, and `invoice.updated`.
 */
export function invoiceRefundParts(
  tenant: Tenant,
  before: InvoiceRecord,
  amount: number,
  now: Date,
): { after: InvoiceRecord; view: Invoice; parts: TransactionPart[] } {
  const after: InvoiceRecord = {
    ...before,
    amount_refunded: before.amount_refunded + amount,
    updated_at: now.toISOString(),
    version: before.version + 1,
  };
  const view = present(after, now);
  const [update] = invoiceUpdate(tenant, before, after, {
    condition:
      before.amount_refunded === 0 ? '(attribute_not_exists(#refunded) OR #refunded = :refundedBefore)' : '#refunded = :refundedBefore',
    names: { '#refunded': 'amount_refunded' },
    values: { ':refundedBefore': before.amount_refunded },
  });
  return {
    after,
    view,
    parts: [
      { item: update!, onConditionFailure: () => new VersionConflict('invoice') },
      { item: eventPut(tenant, invoiceUpdated, { invoice: view }, now).item, onConditionFailure: () => new VersionConflict('invoice') },
    ],
  };
}

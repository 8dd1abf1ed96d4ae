/**
 * Payments and voiding. Each is a read of the invoice and a write conditional on the version
 * read: of two payments at the same time one commits, the other reads again and decides again — so
 * amounts add up, an overpayment is refused even when it only results from a race, and the payment
 * that reaches the total is the one transaction that writes `invoice.paid` (exactly once).
 */
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, ValidationError } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { formatMinor } from '#shared/money';
import { invoicePaid } from './events';
import * as repo from './repository';
import type { PaymentCreateInput } from './schema';
import { present, type Invoice } from './present';
import { assertPayable, assertVoidable } from './status';
import { amountDue } from './totals';
import { MAX_PAYMENTS, orderInvoiceMarkDelete, type InvoiceRecord } from './stored';

/** `POST /v1/invoices/{id}/payments`: 409 on a void or paid invoice, 422 above the amount due. */
export async function recordPayment(tenant: Tenant, id: number, input: PaymentCreateInput, now = new Date()): Promise<Invoice> {
  return retryOnVersionConflict('invoice', async () => {
    const before = await repo.requireInvoice(tenant, id, true);
    assertPayable(before.invoice_number, before.status);
    if (input.amount > before.amount_due) {
      throw new ValidationError(`The payment is more than the amount due of invoice ${before.invoice_number}`, [
        { field: 'amount', message: `must be at most ${formatMinor(before.amount_due)} (the amount due)` },
      ]);
    }
    if (before.payments.length >= MAX_PAYMENTS) {
      throw new ConflictError(`Invoice ${before.invoice_number} has ${MAX_PAYMENTS} payments, the most one invoice takes`);
    }
    const at = now.toISOString();
    const amountPaid = before.amount_paid + input.amount;
    // Payments and credit notes together settle the invoice.
    const due = amountDue(before.total, amountPaid, before.amount_credited);
    const paid = due === 0;
    const after: InvoiceRecord = {
      ...before,
      payments: [
        ...before.payments,
        {
          id: before.payments.length + 1,
          amount: input.amount,
          method: input.method,
          reference: input.reference ?? null,
          paid_at: input.paid_at ?? at,
          recorded_at: at,
        },
      ],
      amount_paid: amountPaid,
      amount_due: due,
      status: paid ? 'paid' : before.status,
      paid_at: paid ? at : null,
      updated_at: at,
      version: before.version + 1,
    };
    const view = present(after, now);
    await repo.saveInvoice(tenant, before, after, paid ? [eventPut(tenant, invoicePaid, { invoice: view }, now).item] : []);
    return view;
  });
}

/**
 * `POST /v1/invoices/{id}/void`: only while nothing is paid and nothing credited (a paid invoice is
 * corrected by a credit note, shared/credit-notes/). The order may be invoiced again afterwards. The
 * voided invoice's documents stay the invoice as issued (type 380): the void is the invoice's state,
 * not a document (docs/invoices.md).
 */
export async function voidInvoice(tenant: Tenant, id: number, now = new Date()): Promise<Invoice> {
  return retryOnVersionConflict('invoice', async () => {
    const before = await repo.requireInvoice(tenant, id, true);
    assertVoidable(before.invoice_number, before.status, before.amount_paid, before.amount_credited);
    const at = now.toISOString();
    const after: InvoiceRecord = { ...before, status: 'void', amount_due: 0, voided_at: at, updated_at: at, version: before.version + 1 };
    await repo.saveInvoice(
      tenant,
      before,
      after,
      before.order_id === null ? [] : [orderInvoiceMarkDelete(tenant, before.order_id, before.id)],
    );
    return present(after, now);
  });
}

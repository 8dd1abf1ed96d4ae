/**
 * An invoice's life: `open` when issued, `sent` once emailed, `paid` when payments (with any credit
 * notes) settle its total, `credited` when credit notes settle it with nothing paid, `void` when
 * cancelled before any payment or credit. Lines and amounts never change once issued (a correction
 * is a credit note, shared/credit-notes/, or — before money moved — a void and a new invoice).
 * `overdue` is not a status: it is computed on read for an open or sent invoice past its due date.
 */
import { ConflictError } from '#shared/errors';

export const INVOICE_STATUSES = ['open', 'sent', 'paid', 'credited', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Open and sent invoices await payment; they are the ones that can be overdue, paid or voided. */
export const isUnpaid = (status: InvoiceStatus): boolean => status === 'open' || status === 'sent';

/** Overdue: still unpaid and the due date (YYYY-MM-DD, payable through that day) has passed. */
export const isOverdue = (status: InvoiceStatus, dueDate: string, today: string): boolean => isUnpaid(status) && dueDate < today;

export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'direct_debit', 'paypal', 'cheque', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** A payment is recorded only on an unpaid invoice; a void or paid one answers 409. */
export function assertPayable(invoiceNumber: string, status: InvoiceStatus): void {
  if (status === 'void') throw new ConflictError(`Invoice ${invoiceNumber} is void: it takes no payments`);
  if (status === 'paid') throw new ConflictError(`Invoice ${invoiceNumber} is already paid in full`);
  if (status === 'credited') throw new ConflictError(`Invoice ${invoiceNumber} is credited in full: nothing is due`);
}

/**
 * Voiding is for mistakes before money moved: only an unpaid invoice with nothing paid and nothing
 * credited (a paid or credited invoice is corrected by a credit note).
 */
export function assertVoidable(invoiceNumber: string, status: InvoiceStatus, amountPaid: number, amountCredited: number): void {
  if (status === 'void') throw new ConflictError(`Invoice ${invoiceNumber} is already void`);
  if (status === 'paid' || amountPaid > 0) {
    throw new ConflictError(`Invoice ${invoiceNumber} has payments: it cannot be voided (issue a credit note instead)`);
  }
  if (status === 'credited' || amountCredited > 0) {
    throw new ConflictError(`Invoice ${invoiceNumber} has credit notes: it cannot be voided (credit the rest instead)`);
  }
}

/** A credit note corrects an issued invoice that is not void; once the invoice is wholly credited, nothing is left. */
export function assertCreditable(invoiceNumber: string, status: InvoiceStatus, total: number, amountCredited: number): void {
  if (status === 'void') throw new ConflictError(`Invoice ${invoiceNumber} is void: it cannot be credited`);
  if (amountCredited >= total) throw new ConflictError(`Invoice ${invoiceNumber} is credited in full: nothing is left to credit`);
}

/** Sending is refused for a void invoice only: a paid one may still be sent (as a copy for the books). */
export function assertSendable(invoiceNumber: string, status: InvoiceStatus): void {
  if (status === 'void') throw new ConflictError(`Invoice ${invoiceNumber} is void: it cannot be sent`);
}

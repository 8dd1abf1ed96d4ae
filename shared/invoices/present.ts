/** The invoice as the API shows it: its view, with `overdue` computed for the moment of reading. */
import { refundDue } from './totals';
import { isOverdue } from './status';
import { storedInvoice, type InvoiceRecord } from './stored';

export type Invoice = ReturnType<typeof storedInvoice.view>;

export const today = (now: Date): string => now.toISOString().slice(0, 10);

export const present = (invoice: InvoiceRecord, now = new Date()): Invoice =>
  storedInvoice.view({ ...invoice, overdue: isOverdue(invoice.status, invoice.due_date, today(now)), refund_due: refundDue(invoice) });

/**
 * The events invoices emit, each carrying the invoice as the API shows it (`data.invoice`), written
 * in the transaction of the change (outbox).
 */
import * as z from 'zod';
import { defineEvent } from '#shared/events/catalogue';
import { InvoiceSchema } from './schema';

const payload = /* @__PURE__ */ z.object({ invoice: InvoiceSchema });

/** An invoice was issued (its number taken). */
export const invoiceCreated = /* @__PURE__ */ defineEvent('invoice.created', payload);
/** Its first sending by email; sending again sends the mail, not the event. */
export const invoiceSent = /* @__PURE__ */ defineEvent('invoice.sent', payload);
/** Payments reached its total: once, however many payments race. */
export const invoicePaid = /* @__PURE__ */ defineEvent('invoice.paid', payload);

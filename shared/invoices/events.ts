/**
 * The events invoices emit, each carrying the invoice as the API shows it (`data.invoice`), written
 * in the transaction of the change (outbox).
 */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { InvoiceSchema } from './schema';

const payload = /* @__PURE__ */ z.object({ invoice: InvoiceSchema });

/** An invoice was issued (its number taken). */
const invoiceCreatedDeclaration = /* @__PURE__ */ defineEvent('invoice.created', payload);
/** Its first sending by email; sending again sends the mail, not the event. */
const invoiceSentDeclaration = /* @__PURE__ */ defineEvent('invoice.sent', payload);
/** Its amounts changed other than by a payment: a credit note (amount_credited, amount_due, credit_notes) or a refund (amount_refunded). */
const invoiceUpdatedDeclaration = /* @__PURE__ */ defineEvent('invoice.updated', payload);
/** Payments reached its total: once, however many payments race. */
const invoicePaidDeclaration = /* @__PURE__ */ defineEvent('invoice.paid', payload);

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [invoiceCreatedDeclaration, invoiceUpdatedDeclaration, invoiceSentDeclaration, invoicePaidDeclaration];

/** What services write with (`eventPut`): the kinds, typed by their declarations, without their schemas. */
export const invoiceCreated = /* @__PURE__ */ writerOf<typeof invoiceCreatedDeclaration>('invoice.created');
export const invoiceSent = /* @__PURE__ */ writerOf<typeof invoiceSentDeclaration>('invoice.sent');
export const invoiceUpdated = /* @__PURE__ */ writerOf<typeof invoiceUpdatedDeclaration>('invoice.updated');
export const invoicePaid = /* @__PURE__ */ writerOf<typeof invoicePaidDeclaration>('invoice.paid');

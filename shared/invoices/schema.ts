import * as z from 'zod';
import { taxCategoryInput, taxExemptionReasonInput } from '#shared/tax/schema';
import { bodyId, calendarDate, lineText, optionalText, queryId, timestamp } from '#shared/schemas/common';
import { moneyInput } from '#shared/schemas/money';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { responseSchema } from '#shared/schemas/response';
import { INVOICE_STATUSES, PAYMENT_METHODS } from './status';
import { storedInvoice } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses.
 */

/** An invoice as responses show it: derived from the stored field list (stored.ts). */
export const InvoiceSchema = /* @__PURE__ */ (() => responseSchema(storedInvoice, { id: 'Invoice' }))();

const oneOf = <const E extends readonly [string, ...string[]]>(values: E) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

/** Invoice lines without an order, and the payment terms. */
export const MAX_INVOICE_ITEMS = 200;
export const MAX_DUE_DAYS = 365;

/** Percent with at most 2 decimals, 0 to 100 (the account's rate when omitted). */
const taxRate = /* @__PURE__ */ z
  .number()
  .min(0, 'must not be negative')
  .max(100, 'must be at most 100')
  .refine((value) => Math.round(value * 100) / 100 === value, 'must have at most 2 decimals')
  .meta({ description: 'Percent; the account tax rate when omitted', example: 19 });

const quantity = /* @__PURE__ */ z
  .number()
  .positive('must be more than 0')
  .max(1_000_000, 'must be at most 1000000')
  .refine((value) => Math.round(value * 1000) / 1000 === value, 'must have at most 3 decimals')
  .meta({ example: 2 });

const InvoiceItemInputSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      description: lineText(500).min(1, 'must not be empty').meta({ example: 'Design work' }),
      quantity,
      unit_price: moneyInput().meta({ description: 'Net, in the account currency', example: 65 }),
      tax_category: taxCategoryInput.optional().meta({ description: 'standard when omitted' }),
      tax_exemption_reason: taxExemptionReasonInput,
      tax_rate: taxRate.optional().meta({ description: "Percent; the account's rate of the line's category when omitted", example: 19 }),
    })
    .meta({ id: 'InvoiceItemInput' }))();

const common = /* @__PURE__ */ (() => ({
  due_days: z
    .number()
    .int('must be an integer')
    .min(0, 'must not be negative')
    .max(MAX_DUE_DAYS, `must be at most ${MAX_DUE_DAYS}`)
    .optional()
    .meta({ description: "Days until due; the account's payment terms when omitted", example: 14 }),
  notes: optionalText(2000, { multiline: true }),
  buyer_reference: optionalText(200).meta({
    description: 'Leitweg-ID or purchase reference of the buyer (XRechnung BT-10); printed and exported',
    example: '991-12345-67',
  }),
  service_date: calendarDate.optional().meta({ description: 'Delivery or service date; the issue date when omitted' }),
}))();

/**
 * Either from an order (`order_id`) or for work without one (`customer_id` and `items`): one
 * object, so the document shows every field and a mistake names the field it concerns.
 */
export const InvoiceCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      order_id: bodyId('Invoice this order: its lines, totals and billing address are copied').optional(),
      customer_id: bodyId('Without order_id: the customer billed (their default billing address is copied)').optional(),
      items: z
        .array(InvoiceItemInputSchema)
        .min(1, 'must have at least 1 item')
        .max(MAX_INVOICE_ITEMS, `must have at most ${MAX_INVOICE_ITEMS} items`)
        .optional()
        .meta({ description: 'Without order_id: the lines' }),
      ...common,
    })
    .superRefine((value, ctx) => {
      const problem = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
      if (value.order_id !== undefined) {
        if (value.customer_id !== undefined) problem('customer_id', 'must not be sent with order_id (the order names its customer)');
        if (value.items !== undefined) problem('items', "must not be sent with order_id (the order's lines are invoiced)");
      } else {
        if (value.customer_id === undefined) problem('customer_id', 'is required without order_id');
        if (value.items === undefined) problem('items', 'is required without order_id');
      }
    })
    .meta({
      id: 'InvoiceCreate',
      description:
        'From an order (`order_id`: lines, totals and billing address copied) or for work without one (`customer_id` and `items`).',
      example: { order_id: 42, due_days: 14, notes: 'Thank you for your order.' },
    }))();

export type InvoiceCreateInput = z.output<typeof InvoiceCreateSchema>;

export const PaymentCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      amount: moneyInput().refine((value) => value > 0, 'must be more than 0'),
      method: oneOf(PAYMENT_METHODS),
      reference: optionalText(200),
      paid_at: timestamp
        .pipe(z.iso.datetime({ message: 'must be an ISO 8601 time such as 2026-11-21T10:15:00Z' }))
        .optional()
        .meta({ description: 'When the money arrived; now when omitted' }),
    })
    .meta({
      id: 'InvoicePaymentCreate',
      description: 'Payments add up; reaching the total makes the invoice paid. More than the amount due is refused.',
      example: { amount: 50, method: 'bank_transfer', reference: 'SEPA 2026-11-24 4711' },
    }))();

export type PaymentCreateInput = z.output<typeof PaymentCreateSchema>;

export const InvoiceListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      status: oneOf(INVOICE_STATUSES).optional(),
      customer_id: queryId('customer_id').optional().meta({ description: "One customer's invoices (with status, if given)" }),
      order_id: queryId('order_id').optional().meta({ description: "One order's invoices (with status, if given)" }),
      due_before: calendarDate.optional().meta({ description: 'Invoices due before this date (not on it), earliest due first' }),
      overdue: z
        .literal('true', { error: 'must be true (leave it out for all invoices)' })
        .transform(() => true as const)
        .optional()
        .meta({ description: 'Only unpaid invoices past their due date, earliest due first' }),
      starting_after: idCursor('invoices'),
    })
    .superRefine(cursorOnFirstPage))();

export type InvoiceListQuery = z.output<typeof InvoiceListQuerySchema>;

/** `GET /v1/customers/{id}/invoices`. */
export const CustomerInvoicesQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({ ...paginationQuery, status: oneOf(INVOICE_STATUSES).optional(), starting_after: idCursor('invoices') })
    .superRefine(cursorOnFirstPage))();

export type CustomerInvoicesQuery = z.output<typeof CustomerInvoicesQuerySchema>;

export const DocumentQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    format: z
      .enum(['pdf', 'url'], { error: 'must be pdf or url' })
      .optional()
      .default('pdf')
      .meta({ description: '`pdf`: the bytes; `url`: JSON with a presigned URL valid 15 minutes' }),
  }))();

export const XmlQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    syntax: z
      .enum(['cii', 'ubl'], { error: 'must be cii or ubl' })
      .optional()
      .default('cii')
      .meta({ description: 'UN/CEFACT CII (as embedded in the PDF) or OASIS UBL 2.1, both XRechnung' }),
  }))();

export const DocumentUrlSchema = /* @__PURE__ */ z
  .object({
    url: z.string().meta({ description: 'Presigned GET URL of the PDF' }),
    expires_at: timestamp,
    filename: z.string().meta({ example: 'INV-2026-000017.pdf' }),
  })
  .meta({ id: 'InvoiceDocumentUrl' });

export const InvoiceSendSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      to: z
        .string()
        .trim()
        .max(254)
        .pipe(z.email('must be a valid email address'))
        .optional()
        .meta({ description: "Recipient; the customer's email when omitted" }),
    })
    .optional()
    .default({})
    .meta({ id: 'InvoiceSend' }))();

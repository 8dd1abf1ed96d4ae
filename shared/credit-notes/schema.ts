import * as z from 'zod';
import { lineText, optionalText, timestamp } from '#shared/schemas/common';
import { moneyInput } from '#shared/schemas/money';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { responseSchema } from '#shared/schemas/response';
import { PAYMENT_METHODS } from '#shared/invoices/status';
import { storedCreditNote } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses.
 */

/** A credit note as responses show it: derived from the stored field list (stored.ts). */
export const CreditNoteSchema = /* @__PURE__ */ (() => responseSchema(storedCreditNote, { id: 'CreditNote' }))();

export const MAX_CREDIT_NOTE_ITEMS = 200;

const quantity = /* @__PURE__ */ z
  .number()
  .positive('must be more than 0')
  .max(1_000_000, 'must be at most 1000000')
  .refine((value) => Math.round(value * 1000) / 1000 === value, 'must have at most 3 decimals')
  .meta({ description: "A quantity of the line, at the line's unit price", example: 2 });

const CreditNoteItemInputSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      position: z
        .number()
        .int('must be an integer')
        .min(1, 'must be at least 1')
        .meta({ description: 'The invoice line (its position)', example: 1 }),
      quantity: quantity.optional(),
      amount: moneyInput()
        .refine((value) => value > 0, 'must be more than 0')
        .optional()
        .meta({ description: 'A net amount of the line (a price reduction), without a quantity', example: 10 }),
    })
    .superRefine((value, ctx) => {
      if ((value.quantity === undefined) === (value.amount === undefined))
        ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'give either quantity or amount' });
    })
    .meta({ id: 'CreditNoteItemInput' }))();

export const CreditNoteCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      reason: lineText(500, true)
        .min(1, 'must not be empty')
        .meta({ description: 'Why the invoice is corrected', example: 'Goods returned' }),
      items: z
        .array(CreditNoteItemInputSchema)
        .min(1, 'must have at least 1 item')
        .max(MAX_CREDIT_NOTE_ITEMS, `must have at most ${MAX_CREDIT_NOTE_ITEMS} items`)
        .optional()
        .meta({ description: 'The lines credited; with neither items nor shipping, everything still uncredited' }),
      shipping: moneyInput()
        .refine((value) => value > 0, 'must be more than 0')
        .optional()
        .meta({ description: 'Net shipping credited' }),
    })
    .meta({
      id: 'CreditNoteCreate',
      description:
        'Credits the whole invoice (what is still uncredited) without items and shipping, else the lines named — a quantity at the unit price, or a net amount — and shipping. Never more than is uncredited.',
      example: { reason: 'Two posters damaged in transit', items: [{ position: 1, quantity: 2 }] },
    }))();

export type CreditNoteCreateInput = z.output<typeof CreditNoteCreateSchema>;

export const RefundCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      amount: moneyInput().refine((value) => value > 0, 'must be more than 0'),
      method: z.enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` }),
      reference: optionalText(200),
      refunded_at: timestamp
        .pipe(z.iso.datetime({ message: 'must be an ISO 8601 time such as 2026-11-21T10:15:00Z' }))
        .optional()
        .meta({ description: 'When the money went out; now when omitted' }),
    })
    .meta({
      id: 'CreditNoteRefundCreate',
      description:
        "At most what the credit note credited of money the customer paid beyond what is owed, not refunded yet (the invoice's refund_due).",
      example: { amount: 23.8, method: 'bank_transfer', reference: 'SEPA refund 2026-11-28' },
    }))();

export type RefundCreateInput = z.output<typeof RefundCreateSchema>;

export const CreditNoteListQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({ ...paginationQuery, starting_after: idCursor('credit notes') }).superRefine(cursorOnFirstPage))();

export type CreditNoteListQuery = z.output<typeof CreditNoteListQuerySchema>;

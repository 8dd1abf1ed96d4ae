import * as z from 'zod';
import { addressFields, createdBound, oneAddressSource, orderLines } from '#shared/orders/schema';
import { bodyId, calendarDate, optionalText, queryId } from '#shared/schemas/common';
import { moneyInput } from '#shared/schemas/money';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { responseSchema } from '#shared/schemas/response';
import { QUOTE_STATUSES } from './status';
import { storedQuote } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses. Lines are order lines (`orderLines`): priced by the same code.
 */

/** A quote as responses show it: derived from the stored field list (stored.ts). */
export const QuoteSchema = /* @__PURE__ */ (() => responseSchema(storedQuote, { id: 'Quote' }))();

export const QuoteCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      customer_id: bodyId('The customer the quote is for'),
      items: orderLines,
      shipping: moneyInput().optional().default(0).meta({ description: 'Net; taxed like the lines' }),
      ...addressFields,
      notes: optionalText(5000, { multiline: true }),
      valid_until: calendarDate
        .optional()
        .meta({ description: "The last day it can be accepted; today + the account's quote validity (default 30 days) when omitted" }),
    })
    .superRefine(oneAddressSource)
    .meta({
      id: 'QuoteCreate',
      description: "Lines are priced like order lines. An address not given is the customer's default of its type, or null.",
      example: {
        customer_id: 7,
        items: [
          { product_id: 3, quantity: 500, options: { paper: 'matt300' } },
          { product_id: 3, quantity: 1, unit_price: 45, description: 'Design work' },
        ],
        shipping: 4.9,
        notes: 'Delivery within 5 working days after approval.',
      },
    }))();

export const QuoteUpdateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      items: orderLines.optional().meta({ description: 'Replaces all lines (priced again)' }),
      shipping: moneyInput().optional(),
      valid_until: calendarDate.optional(),
      notes: optionalText(5000, { multiline: true }),
    })
    .refine(
      (value) => Object.values(value).some((field) => field !== undefined),
      'send at least one of: items, shipping, valid_until, notes',
    )
    .meta({
      id: 'QuoteUpdate',
      description: 'Only while open (an expired quote too: a later valid_until revives it). If-Match: the version or ETag.',
      example: { valid_until: '2026-12-31' },
    }))();

export const QuoteRejectSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({ reason: optionalText(1000, { multiline: true }).meta({ example: 'Too expensive' }) })
    .optional()
    .default({})
    .meta({ id: 'QuoteReject' }))();

const status = /* @__PURE__ */ z.enum(QUOTE_STATUSES, { error: `must be one of ${QUOTE_STATUSES.join(', ')}` }).meta({
  description: 'open and expired list by validity (soonest first), accepted and rejected newest first',
});

const created = (bound: 'from' | 'to') =>
  createdBound(bound)
    .optional()
    .meta({ description: `Quotes created ${bound === 'from' ? 'at or after' : 'at or before'} this time (a date: the whole day, UTC)` });

export const QuoteListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      status: status.optional(),
      customer_id: queryId('customer_id').optional().meta({ description: "One customer's quotes" }),
      created_from: created('from'),
      created_to: created('to'),
      starting_after: idCursor('quotes'),
    })
    .superRefine(cursorOnFirstPage))();

export const CustomerQuotesQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      status: status.optional(),
      created_from: created('from'),
      created_to: created('to'),
      starting_after: idCursor('quotes'),
    })
    .superRefine(cursorOnFirstPage))();

export type QuoteCreate = z.output<typeof QuoteCreateSchema>;
export type QuoteUpdate = z.output<typeof QuoteUpdateSchema>;
export type QuoteListQuery = z.output<typeof QuoteListQuerySchema>;
export type CustomerQuotesQuery = z.output<typeof CustomerQuotesQuerySchema>;
export type Quote = z.output<typeof QuoteSchema>;

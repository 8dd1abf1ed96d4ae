import * as z from 'zod';
import { optionalText, timestamp } from '#shared/schemas/common';
import { postalAddressFields, postalAddressOutputFields } from '#shared/schemas/address';
import { moneyInput, moneyOutput } from '#shared/schemas/money';
import { ORDER_STATUSES } from './status';

/**
 * Lines per order. An order, its stock reservations and their stock.low events share one
 * TransactWriteItems (at most 100 items): 25 lines → at most 2 × 25 product items + 8 of the order's own.
 */
export const MAX_ORDER_LINES = 25;

/** The products' quantity bound (products/schema.ts MAX_QUANTITY, checked by a unit test), kept here so order bundles need not carry the product schemas. */
export const MAX_LINE_QUANTITY = 10_000_000;

const id = (description: string) => z.number().int('must be an integer').min(1, 'must be a positive integer').max(Number.MAX_SAFE_INTEGER).meta({ description });

/** A calendar date `YYYY-MM-DD` (a due date has no time of day). */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD', abort: true })
  .refine((value) => !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().slice(0, 10) === value, 'must be a real calendar date')
  .meta({ example: '2026-12-01' });

export const OrderAddressInputSchema = z
  .strictObject(postalAddressFields)
  .meta({ id: 'OrderAddressInput' });

export const OrderLineInputSchema = z
  .strictObject({
    product_id: id('An active product'),
    quantity: z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_LINE_QUANTITY).meta({ example: 500 }),
    unit_price: moneyInput()
      .optional()
      .meta({ description: 'Manual price: the line costs quantity × unit_price. Omitted: the product calculation.', example: 0.12 }),
    options: z
      .record(z.string().max(50), z.string().max(50))
      .optional()
      .default({})
      .meta({ description: 'Option code → value code', example: { paper: 'linen' } }),
    description: optionalText(500).meta({ description: "Defaults to the product's name" }),
    file_ids: z.array(id('File id')).max(20).optional().default([]).meta({ description: 'Artwork files of the line' }),
  })
  .meta({ id: 'OrderLineInput' });

const lines = z
  .array(OrderLineInputSchema)
  .min(1, 'must have at least one line')
  .max(MAX_ORDER_LINES, `must have at most ${MAX_ORDER_LINES} lines`);

const addressFields = {
  shipping_address_id: id("Copy the customer's address").optional(),
  shipping_address: OrderAddressInputSchema.optional(),
  billing_address_id: id("Copy the customer's address").optional(),
  billing_address: OrderAddressInputSchema.optional(),
};

type AddressChoice = Partial<Record<'shipping_address_id' | 'shipping_address' | 'billing_address_id' | 'billing_address', unknown>>;

/** An address is copied from the customer by id or given inline, not both. */
function oneAddressSource(value: AddressChoice, ctx: z.core.$RefinementCtx): void {
  for (const kind of ['shipping', 'billing'] as const) {
    if (value[`${kind}_address_id`] !== undefined && value[`${kind}_address`] !== undefined) {
      ctx.addIssue({ code: 'custom', path: [`${kind}_address_id`], message: `give ${kind}_address_id or ${kind}_address, not both` });
    }
  }
}

export const OrderCreateSchema = z
  .strictObject({
    customer_id: id('The ordering customer'),
    items: lines,
    shipping: moneyInput().optional().default(0).meta({ description: 'Net; taxed like the lines' }),
    ...addressFields,
    notes: optionalText(5000),
    due_date: calendarDate.nullable().optional(),
  })
  .superRefine(oneAddressSource)
  .meta({
    id: 'OrderCreate',
    description: "An address not given is the customer's default of its type, or null.",
  });

export const ORDER_UPDATE_FIELDS = ['status', 'items', 'shipping', 'shipping_address_id', 'shipping_address', 'billing_address_id', 'billing_address', 'notes', 'due_date'] as const;

export const OrderUpdateSchema = z
  .strictObject({
    status: z.enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }).optional(),
    items: lines.optional().meta({ description: 'Replaces all lines (pending only)' }),
    shipping: moneyInput().optional().meta({ description: 'Pending only' }),
    ...addressFields,
    shipping_address: OrderAddressInputSchema.nullable().optional(),
    billing_address: OrderAddressInputSchema.nullable().optional(),
    notes: optionalText(5000),
    due_date: calendarDate.nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (Object.values(value).every((field) => field === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `send at least one of: ${ORDER_UPDATE_FIELDS.join(', ')}` });
    }
    if (value.items !== undefined && value.status !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['items'], message: 'change items and status in separate requests' });
    }
    oneAddressSource(value, ctx);
  })
  .meta({
    id: 'OrderUpdate',
    description: 'Only the fields sent change; null clears. If-Match: the version or ETag.',
  });

const OrderAddressSchema = z
  .object(postalAddressOutputFields)
  .meta({ id: 'OrderAddress', description: "A copy: later edits of the customer's addresses do not change it" });

const OrderLineSchema = z
  .object({
    id: z.number().int().meta({ description: 'Line number within the order, from 1' }),
    product_id: z.number().int(),
    description: z.string(),
    quantity: z.number().int(),
    unit_price: moneyOutput,
    setup_fee: moneyOutput,
    price_source: z.enum(['product', 'manual']).meta({ description: 'manual when unit_price was sent' }),
    options: z.record(z.string(), z.string()).meta({ description: 'The chosen option values, defaults included' }),
    file_ids: z.array(z.number().int()),
    total: moneyOutput.meta({ description: 'quantity × unit_price + setup_fee' }),
  })
  .meta({ id: 'OrderLine' });

export const OrderSchema = z
  .object({
    id: z.number().int(),
    order_number: z.string().meta({ example: 'ORD-2026-000042' }),
    status: z.enum(ORDER_STATUSES),
    customer: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).meta({ description: 'As at ordering time' }),
    items: z.array(OrderLineSchema),
    subtotal: moneyOutput,
    tax_rate: z.number().meta({ description: 'Percent', example: 19 }),
    tax: moneyOutput,
    shipping: moneyOutput,
    total: moneyOutput.meta({ description: 'subtotal + shipping + tax' }),
    currency: z.string().meta({ example: 'EUR' }),
    shipping_address: OrderAddressSchema.nullable(),
    billing_address: OrderAddressSchema.nullable(),
    notes: z.string().nullable(),
    due_date: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    version: z.number().int().meta({ description: 'Raised by every change; send it as If-Match' }),
  })
  .meta({ id: 'Order' });

export type OrderCreate = z.output<typeof OrderCreateSchema>;
export type OrderUpdate = z.output<typeof OrderUpdateSchema>;
export type OrderLineInput = z.output<typeof OrderLineInputSchema>;
export type OrderAddressInput = z.output<typeof OrderAddressInputSchema>;
export type Order = z.output<typeof OrderSchema>;
export type OrderAddress = z.output<typeof OrderAddressSchema>;
export type OrderLine = z.output<typeof OrderLineSchema>;

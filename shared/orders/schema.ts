import { customsFieldsWith } from '#shared/schemas/customs';
import * as z from 'zod';
import { taxCategoryInput, taxExemptionReasonInput } from '#shared/tax/schema';
import { responseSchema } from '#shared/schemas/response';
import { bodyId, calendarDate, dateOrDateTimeDoc, lineText, optionChoices, optionalText, pathId, queryId } from '#shared/schemas/common';
import { postalAddressFields } from '#shared/schemas/address';
import { moneyInput } from '#shared/schemas/money';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { ORDER_STATUSES } from './status';
import { storedOrder } from './stored';

/**
 * Lines per order. An order, its stock reservations and their stock.low events share one
 * TransactWriteItems (at most 100 items): 25 lines → at most 2 × 25 product items + 8 of the order's own.
 */
export const MAX_ORDER_LINES = 25;

/**
 * The products' quantity bound (products/schema.ts MAX_QUANTITY, checked by a unit test), kept
 * here so order bundles need not carry the product schemas.
 */
export const MAX_LINE_QUANTITY = 10_000_000;

/** Characters of an order's notes. */
export const MAX_ORDER_NOTES = 5000;

/** Artwork files per line. */
export const MAX_LINE_FILES = 20;

export const OrderAddressInputSchema = /* @__PURE__ */ z.strictObject(postalAddressFields).meta({ id: 'OrderAddressInput' });

/** What a line names: its product (or legacy product and table cell), quantity, options and files. */
const orderLineFields = /* @__PURE__ */ (() => ({
  product_id: bodyId('An active product').optional(),
  legacy_product_id: bodyId('A legacy product: with format, color and pages, priced from its table').optional(),
  format: lineText(100).min(1).optional().meta({ description: 'Legacy products: a format of the table', example: 'A4' }),
  color: lineText(100).min(1).optional().meta({ description: 'Legacy products: a color of the table', example: '4/4' }),
  pages: z.number().int('must be an integer').min(1, 'must be at least 1').max(100_000).optional().meta({ description: 'Legacy products' }),
  quantity: z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_LINE_QUANTITY).meta({ example: 500 }),
  options: optionChoices({ paper: 'linen' }).optional().default({}),
  file_ids: z.array(bodyId('File id')).max(MAX_LINE_FILES).optional().default([]).meta({ description: 'Artwork files of the line' }),
}))();

/** A line's customs fields (docs/shipping.md#customs), the shop's to set: default the product's. */
const lineCustomsFields = /* @__PURE__ */ (() =>
  customsFieldsWith({ hsCode: "; default: the product's", origin: "; default: the product's", description: "; default: the product's" }))();

/** Fields of a line only the shop sets: its price and its text on documents. A customer token's line has neither. */
export const SHOP_LINE_FIELDS = ['unit_price', 'description', 'tax_category', 'tax_exemption_reason'] as const;

const lineDescription = {
  description:
    'A product (`product_id`, `options`) or a legacy product (`legacy_product_id`, `format`, `color`, `pages`: the table prices the whole run).',
};

export const OrderLineInputSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...orderLineFields,
      unit_price: moneyInput()
        .optional()
        .meta({ description: 'Manual price: the line costs quantity × unit_price. Omitted: the product calculation.', example: 0.12 }),
      description: optionalText(500, { multiline: true }).meta({ description: "Defaults to the product's name" }),
      tax_category: taxCategoryInput.optional().meta({ description: "The line's own tax category; omitted: its product's" }),
      tax_exemption_reason: taxExemptionReasonInput,
      ...lineCustomsFields,
    })
    .superRefine(oneProductKind)
    .meta({ id: 'OrderLineInput', ...lineDescription }))();

/**
 * A line as a customer access token sends it: priced by the shop's catalogue only. `unit_price` and
 * `description` are the shop's (SHOP_LINE_FIELDS): sending one is a 422 naming it (docs/customer-auth.md).
 */
export const CustomerOrderLineInputSchema = /* @__PURE__ */ (() =>
  z
    .strictObject(orderLineFields, {
      error: (issue) =>
        issue.code === 'unrecognized_keys' && issue.keys.every((key) => (SHOP_LINE_FIELDS as readonly string[]).includes(key))
          ? 'is set by the shop'
          : undefined,
    })
    .superRefine(oneProductKind)
    .meta({ id: 'CustomerOrderLineInput', ...lineDescription }))();

const linesOf = <L extends z.ZodType>(line: L) =>
  z.array(line).min(1, 'must have at least one line').max(MAX_ORDER_LINES, `must have at most ${MAX_ORDER_LINES} lines`);

export const orderLines = /* @__PURE__ */ (() => linesOf(OrderLineInputSchema))();

export const addressFields = /* @__PURE__ */ (() => ({
  shipping_address_id: bodyId("Copy the customer's address").optional(),
  shipping_address: OrderAddressInputSchema.optional(),
  billing_address_id: bodyId("Copy the customer's address").optional(),
  billing_address: OrderAddressInputSchema.optional(),
}))();

type AddressChoice = Partial<Record<'shipping_address_id' | 'shipping_address' | 'billing_address_id' | 'billing_address', unknown>>;

const LEGACY_FIELDS = ['format', 'color', 'pages'] as const;

/** A line names a product or a legacy product with its table cell, never both. */
function oneProductKind(
  line: { product_id?: number | undefined; legacy_product_id?: number | undefined; options: Record<string, string> } & Partial<
    Record<(typeof LEGACY_FIELDS)[number], unknown>
  >,
  ctx: z.core.$RefinementCtx,
): void {
  if ((line.product_id === undefined) === (line.legacy_product_id === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['product_id'], message: 'send product_id, or legacy_product_id with format, color and pages' });
    return;
  }
  for (const field of LEGACY_FIELDS) {
    if (line.legacy_product_id !== undefined && line[field] === undefined)
      ctx.addIssue({ code: 'custom', path: [field], message: 'Required with legacy_product_id' });
    if (line.product_id !== undefined && line[field] !== undefined)
      ctx.addIssue({ code: 'custom', path: [field], message: 'only with legacy_product_id' });
  }
  if (line.legacy_product_id !== undefined && Object.keys(line.options).length > 0)
    ctx.addIssue({ code: 'custom', path: ['options'], message: 'a legacy product has no options: its table has format, color and pages' });
}

/** An address is copied from the customer by id or given inline, not both. */
export function oneAddressSource(value: AddressChoice, ctx: z.core.$RefinementCtx): void {
  for (const kind of ['shipping', 'billing'] as const) {
    if (value[`${kind}_address_id`] !== undefined && value[`${kind}_address`] !== undefined) {
      ctx.addIssue({ code: 'custom', path: [`${kind}_address_id`], message: `give ${kind}_address_id or ${kind}_address, not both` });
    }
  }
}

/** The fields of a new order that every caller sends (a customer token's lines are CustomerOrderLineInput). */
const orderCreateFields = /* @__PURE__ */ (() => ({
  items: orderLines,
  ...addressFields,
  notes: optionalText(MAX_ORDER_NOTES, { multiline: true }),
  due_date: calendarDate.nullable().optional(),
}))();

export const OrderCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      customer_id: bodyId('The ordering customer'),
      ...orderCreateFields,
      shipping: moneyInput().optional().default(0).meta({ description: 'Net; taxed like the lines' }),
    })
    .superRefine(oneAddressSource)
    .meta({
      id: 'OrderCreate',
      description:
        "An address not given is the customer's default of its type, or null. With a customer access token: " +
        "CustomerOrderCreate (the customer is implied, the shipping charge is the shop's).",
    }))();

/**
 * What a customer access token sends: its customer is implied (another id is 403); the shipping
 * charge, the lines' prices and their descriptions are the shop's (422 naming the field).
 */
export const CustomerOrderCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      customer_id: bodyId("The caller's own customer id (optional: implied)").optional(),
      ...orderCreateFields,
      items: linesOf(CustomerOrderLineInputSchema),
    })
    .superRefine(oneAddressSource)
    .meta({ id: 'CustomerOrderCreate' }))();

export const ORDER_UPDATE_FIELDS = [
  'status',
  'items',
  'shipping',
  'shipping_address_id',
  'shipping_address',
  'billing_address_id',
  'billing_address',
  'notes',
  'due_date',
] as const;

export const OrderUpdateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      status: z.enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }).optional(),
      items: orderLines.optional().meta({ description: 'Replaces all lines (pending only)' }),
      shipping: moneyInput().optional().meta({ description: 'Pending only' }),
      ...addressFields,
      shipping_address: OrderAddressInputSchema.nullable().optional(),
      billing_address: OrderAddressInputSchema.nullable().optional(),
      notes: optionalText(MAX_ORDER_NOTES, { multiline: true }),
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
    }))();

/** An order as responses show it: derived from the stored field list (stored.ts). */
export const OrderSchema = /* @__PURE__ */ (() => responseSchema(storedOrder, { id: 'Order' }))();

export type OrderCreate = z.output<typeof OrderCreateSchema>;
export type CustomerOrderCreate = z.output<typeof CustomerOrderCreateSchema>;
export type OrderUpdate = z.output<typeof OrderUpdateSchema>;
export type OrderLineInput = z.output<typeof OrderLineInputSchema>;
export type OrderAddressInput = z.output<typeof OrderAddressInputSchema>;
export type Order = z.output<typeof OrderSchema>;
export type OrderAddress = Order['shipping_address'] & object;
export type OrderLine = Order['items'][number];

// ---- List queries ----------------------------------------------------------------------------

const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A list bound: a date (`2026-11-01`: the start of that day for `created_from`, its end for
 * `created_to`, both UTC) or an ISO 8601 date-time with `Z` or an offset. Becomes an ISO UTC string.
 */
export const createdBound = (bound: 'from' | 'to') =>
  z
    .string()
    .trim()
    .refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}$/.test(value)
          ? calendarDate.safeParse(value).success
          : dateTimePattern.test(value) && !Number.isNaN(Date.parse(value)),
      {
        message: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with Z or an offset',
      },
    )
    .transform((value) => {
      if (value.length > 10) return new Date(value).toISOString();
      return bound === 'from' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
    })
    .meta({
      description: `Orders created ${bound === 'from' ? 'at or after' : 'at or before'} this time (a date covers the whole day, UTC)`,
      example: '2026-11-01',
      ...dateOrDateTimeDoc,
    });

const listFilters = /* @__PURE__ */ (() => ({
  status: z.enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }).optional(),
  created_from: createdBound('from').optional(),
  created_to: createdBound('to').optional(),
  starting_after: idCursor('orders'),
}))();

type ListFilterValues = { created_from?: string; created_to?: string; starting_after?: number; page: number };

function consistentRange(value: ListFilterValues, ctx: z.core.$RefinementCtx): void {
  if (value.created_from !== undefined && value.created_to !== undefined && value.created_from > value.created_to) {
    ctx.addIssue({ code: 'custom', path: ['created_to'], message: 'must not be before created_from' });
  }
  cursorOnFirstPage(value, ctx);
}

export const OrderListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      ...listFilters,
      customer_id: queryId('customer_id').optional().meta({ description: "One customer's orders" }),
    })
    .superRefine(consistentRange))();

export const CustomerOrdersQuerySchema = /* @__PURE__ */ z
  .strictObject({ ...paginationQuery, ...listFilters })
  .superRefine(consistentRange);

export type OrderListQuery = z.output<typeof OrderListQuerySchema>;
export type CustomerOrdersQuery = z.output<typeof CustomerOrdersQuerySchema>;

/** `PUT /v1/orders/{id}/lines/{line_id}/files`: the order and its line. */
export const OrderLinePathSchema = /* @__PURE__ */ (() =>
  z.object({
    id: pathId.meta({ description: 'Order id', param: { name: 'id', in: 'path' } }),
    line_id: pathId.meta({ description: 'Line number within the order', param: { name: 'line_id', in: 'path' } }),
  }))();

/** The line's new artwork: replaces its files (a confirmed or in-production order; docs/orders.md#replacing-a-lines-artwork). */
export const OrderLineFilesSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      file_ids: z
        .array(bodyId('File id'))
        .min(1, 'must name at least one file')
        .max(MAX_LINE_FILES)
        .meta({ description: "The line's new artwork: ready files of the account, in print order" }),
    })
    .meta({ id: 'OrderLineFiles' }))();

export type OrderLineFiles = z.infer<typeof OrderLineFilesSchema>;

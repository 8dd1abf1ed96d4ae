import * as z from 'zod';
import { appliedTaxCategoryOutput, TaxesSchema } from '#shared/tax/schema';
import { MAX_PAGES, MAX_QUANTITY as MAX_LEGACY_QUANTITY, MAX_VALUE_LENGTH } from '#shared/legacy-products/price-table';
import { addressFields, MAX_LINE_FILES, MAX_LINE_QUANTITY, oneAddressSource } from '#shared/orders/schema';
import { bodyId, optionChoices, optionalText, requiredText } from '#shared/schemas/common';
import { moneyInput, moneyOutput } from '#shared/schemas/money';
import { CART_STATUSES, MAX_CART_LINES } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses. The cart's answer is a priced view (lines priced again on every
 * read), so its schema is written here rather than derived from the stored field list.
 */

/** A session cart's id: `cart_` and 24 base62 characters (about 143 random bits). */
export const CART_ID_PATTERN = /^cart_[0-9A-Za-z]{24}$/;

export const cartId = /* @__PURE__ */ z
  .string()
  .regex(CART_ID_PATTERN, 'must be a cart id (cart_…)')
  .meta({ description: 'A session cart id (cart_…)', example: 'cart_4fQ2mZ8rT1xV9bN3kL7pW0sD' });

const quantity = /* @__PURE__ */ z
  .number()
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(Math.max(MAX_LINE_QUANTITY, MAX_LEGACY_QUANTITY))
  .meta({ example: 500 });
const legacyValue = /* @__PURE__ */ requiredText(MAX_VALUE_LENGTH);
const pages = /* @__PURE__ */ z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_PAGES);
const fileIds = /* @__PURE__ */ z.array(bodyId('File id')).max(MAX_LINE_FILES).meta({ description: 'Artwork files of the line' });
const note = /* @__PURE__ */ optionalText(500, { multiline: true }).meta({ description: "The customer's note on the line" });

const LEGACY_FIELDS = ['format', 'color', 'pages'] as const;

export const CartLineInputSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      product_id: bodyId('A product: priced with its options').optional(),
      options: optionChoices({ paper: 'matt300' }).optional(),
      legacy_product_id: bodyId('A legacy product: priced by lookup of format, color, quantity and pages').optional(),
      format: legacyValue.optional().meta({ example: 'A4' }),
      color: legacyValue.optional().meta({ example: '4/4' }),
      pages: pages.optional().meta({ example: 8 }),
      quantity,
      file_ids: fileIds.optional().default([]),
      note,
    })
    .superRefine((value, ctx) => {
      const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if ((value.product_id === undefined) === (value.legacy_product_id === undefined)) {
        problem('product_id', 'send product_id or legacy_product_id (one of them)');
        return;
      }
      if (value.product_id !== undefined) {
        for (const name of LEGACY_FIELDS) if (value[name] !== undefined) problem(name, 'only for legacy_product_id lines');
      } else {
        if (value.options !== undefined) problem('options', 'only for product_id lines');
        for (const name of LEGACY_FIELDS) if (value[name] === undefined) problem(name, 'Required with legacy_product_id');
      }
    })
    .meta({
      id: 'CartLineInput',
      description: 'A product with options (defaults filled in), or a legacy product by format, color, quantity and pages.',
      example: { product_id: 3, quantity: 500, options: { paper: 'matt300' }, note: 'Logo on the back' },
    }))();

export const CartCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      items: z.array(CartLineInputSchema).max(MAX_CART_LINES, `must have at most ${MAX_CART_LINES} lines`).optional().default([]),
    })
    .optional()
    .default({ items: [] })
    .meta({ id: 'CartCreate', description: 'Optionally with its first lines.' }))();

export const CartLineUpdateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      quantity: quantity.optional(),
      options: optionChoices({ paper: 'linen' }).optional().meta({ description: 'Replaces the choice (product lines)' }),
      format: legacyValue.optional(),
      color: legacyValue.optional(),
      pages: pages.optional(),
      file_ids: fileIds.optional(),
      note,
    })
    .refine((value) => Object.values(value).some((field) => field !== undefined), 'send at least one field to change')
    .meta({ id: 'CartLineUpdate', description: 'Only the fields sent change; the line is priced again.', example: { quantity: 1000 } }))();

export const CartMergeSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({ cart_id: cartId })
    .meta({ id: 'CartMerge', description: "The session cart to merge into the signed-in customer's cart" }))();

const version = /* @__PURE__ */ z
  .string()
  .max(40)
  .regex(/^[\w.-]*$/, "is not a cart's version")
  .meta({ description: "The cart's `version` as last read", example: '3.Zx8kq2LmP0aB' });

const email = /* @__PURE__ */ z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .meta({ example: 'anna@example.com' });

export const CartCheckoutSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      version,
      customer_id: bodyId('Secret keys: the ordering customer').optional(),
      email: email.optional().meta({ description: "Publishable keys (a guest): the tenant's customer with this email, or a new one" }),
      name: requiredText(200).optional().meta({ description: 'Publishable keys: the name of a new customer' }),
      shipping: moneyInput().optional().meta({ description: 'Secret keys: net, taxed like the lines; 0 when not sent' }),
      ...addressFields,
      notes: optionalText(5000, { multiline: true }),
    })
    .superRefine(oneAddressSource)
    .meta({ id: 'CartCheckout', description: 'A guest (publishable key) gives addresses inline; see docs/carts.md' }))();

export const CustomerCartCheckoutSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({ version, ...addressFields, notes: optionalText(5000, { multiline: true }) })
    .superRefine(oneAddressSource)
    .meta({
      id: 'CustomerCartCheckout',
      description: "The signed-in customer orders their cart. An address not given is the customer's default of its type.",
    }))();

// ---- The answer ---------------------------------------------------------------------------------

export const CartLineSchema = /* @__PURE__ */ (() =>
  z
    .object({
      id: z.number().int().meta({ description: 'Line id within the cart' }),
      kind: z.enum(['product', 'legacy']),
      product_id: z.number().int().nullable(),
      legacy_product_id: z.number().int().nullable(),
      name: z.string().nullable().meta({ description: "The product's name (null when it no longer exists)" }),
      options: z.record(z.string(), z.string()).meta({ description: 'The chosen option values, defaults included' }),
      format: z.string().nullable(),
      color: z.string().nullable(),
      pages: z.number().int().nullable(),
      quantity: z.number().int(),
      file_ids: z.array(z.number().int()),
      note: z.string().nullable(),
      unit_price: moneyOutput.meta({ description: 'The current price: per unit for product lines, of the whole run for legacy lines' }),
      setup_fee: moneyOutput,
      total: moneyOutput.meta({ description: 'quantity × unit_price + setup_fee (legacy: the run price); 0 when unavailable' }),
      tax_category: appliedTaxCategoryOutput,
      tax_rate: z.number().meta({ description: "Percent: the account's rate of the product's category", example: 19 }),
      price_changed: z.boolean().meta({ description: 'The price differs from the one the line was added (or last changed) at' }),
      previous_unit_price: moneyOutput.nullable().meta({ description: 'That earlier unit price, when price_changed' }),
      unavailable: z.boolean().meta({ description: 'The product is inactive or gone, or the choice no longer has a price' }),
      unavailable_reason: z.string().nullable(),
    })
    .meta({ id: 'CartLine' }))();

export const CartSchema = /* @__PURE__ */ (() =>
  z
    .object({
      id: z.string().meta({ description: 'Session carts: the capability (cart_…); a customer cart: cart_customer_<id>' }),
      status: z.enum(CART_STATUSES.filter((status) => status !== 'merged') as ['open', 'checked_out']),
      customer_id: z.number().int().nullable().meta({ description: "A customer's cart: the customer" }),
      items: z.array(CartLineSchema),
      item_count: z.number().int().meta({ description: 'Number of lines' }),
      subtotal: moneyOutput.meta({ description: 'Net, of the available lines' }),
      taxes: TaxesSchema,
      tax: moneyOutput.meta({ description: 'Σ taxes.tax_amount' }),
      total: moneyOutput,
      tax_rate: z.number().meta({ description: "The account's standard rate (each line has its own)", example: 19 }),
      currency: z.string().meta({ example: 'EUR' }),
      version: z.string().meta({ description: 'Send it with checkout: `<revision>.<price fingerprint>`', example: '3.Zx8kq2LmP0aB' }),
      order_id: z.number().int().nullable().meta({ description: 'The order of its last checkout' }),
      checked_out_at: z.string().nullable(),
      created_at: z.string().nullable(),
      updated_at: z.string().nullable(),
      expires_at: z.string().nullable().meta({ description: 'When it expires unless changed again (docs/carts.md)' }),
    })
    .meta({ id: 'Cart' }))();

export const CartDeletedSchema = /* @__PURE__ */ z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: 'CartDeleted' });

export type CartLineInput = z.output<typeof CartLineInputSchema>;
export type CartLineUpdate = z.output<typeof CartLineUpdateSchema>;
export type CartCheckout = z.output<typeof CartCheckoutSchema>;
export type CustomerCartCheckout = z.output<typeof CustomerCartCheckoutSchema>;
export type Cart = z.output<typeof CartSchema>;

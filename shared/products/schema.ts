import { customsFieldsWith } from '#shared/schemas/customs';
import * as z from 'zod';
import { appliedTaxCategoryOutput, TaxesSchema, taxCategoryInput, taxExemptionReasonInput } from '#shared/tax/schema';
import { responseSchema } from '#shared/schemas/response';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { hasAtMostDecimals } from '#shared/money';
import { MAX_PRODUCT_OPTIONS, lineText, optionChoices, optionalText, requiredText } from '#shared/schemas/common';
import { moneyInput, moneyOutput } from '#shared/schemas/money';
import { imageUrl } from '#shared/schemas/url';
import { strictProductObject } from './renamed-fields';
import { storedProduct } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses — GET /v1/products/{id} builds the Product schema, no input.
 */

/** A product as responses show it: derived from the stored field list (stored.ts). */
export const ProductSchema = /* @__PURE__ */ (() => responseSchema(storedProduct, { id: 'Product' }))();
export type Product = z.output<typeof ProductSchema>;

/** Quantities are bounded so that every price stays an exact integer of minor units. */
export const MAX_QUANTITY = 10_000_000;

const quantity = (description: string) =>
  z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_QUANTITY).meta({ description });

const code = /* @__PURE__ */ z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, 'must be 1–50 characters: lower-case letters, digits, _ or -')
  .meta({ example: 'paper' });

const priceFactor = /* @__PURE__ */ (() =>
  z
    .number()
    .gt(0, 'must be greater than 0')
    .max(100, 'must be at most 100')
    .refine((value) => hasAtMostDecimals(value, 4), 'must have at most 4 decimals')
    .meta({ description: 'Multiplies the unit price (after deltas) when this value is chosen', example: 1.15 }))();

const OptionValueInput = /* @__PURE__ */ (() =>
  z.strictObject({
    code,
    name: requiredText(100).meta({ example: 'Gloss 170 g/m²' }),
    price_delta: moneyInput({ allowNegative: true })
      .optional()
      .default(0)
      .meta({ description: 'Added to the unit price; may be negative' }),
    price_factor: priceFactor.nullable().optional(),
  }))();

const OptionInput = /* @__PURE__ */ (() =>
  z.strictObject({
    code,
    name: requiredText(100).meta({ example: 'Paper' }),
    required: z.boolean().optional().default(true).meta({ description: 'A required option without a default must be chosen in calculate' }),
    default: code.nullable().optional().meta({ description: 'Value code used when the option is not chosen' }),
    values: z.array(OptionValueInput).min(1, 'must list at least one value').max(50),
  }))();

const TierInput = /* @__PURE__ */ (() =>
  z.strictObject({
    min_qty: quantity('The tier applies from this quantity'),
    unit_price: moneyInput(),
  }))();

const StockInput = /* @__PURE__ */ z.strictObject({
  tracked: z.boolean().optional(),
  quantity: z.number().int('must be an integer').min(0, 'must not be negative').max(1_000_000_000).optional(),
  low_threshold: z.number().int('must be an integer').min(0, 'must not be negative').max(1_000_000_000).optional(),
});

/** Customs fields (docs/shipping.md#customs): what a shipment leaving the EU customs area declares per line. */
export const customsFields = /* @__PURE__ */ (() =>
  customsFieldsWith({ hsCode: '', origin: '', description: " (default: the line's description)" }, true))();

const productFields = /* @__PURE__ */ (() => ({
  name: requiredText(200).meta({ example: 'Flyer A5' }),
  description: optionalText(5000, { multiline: true }),
  category: requiredText(100).meta({ example: 'flyers' }),
  is_active: z.boolean().optional().default(true),
  min_qty: quantity('Smallest quantity that can be ordered').optional().default(1),
  max_qty: quantity('Largest quantity that can be ordered').nullable().optional(),
  unit: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,20}$/, 'must be 1–20 lower-case letters, digits or _ (piece, sheet, m2…)')
    .optional()
    .default('piece'),
  base_price: moneyInput().meta({ description: 'Unit price below the first tier' }),
  price_tiers: z
    .array(TierInput)
    .max(50)
    .optional()
    .default([])
    .meta({ description: 'Ascending by min_qty; the tier with the highest min_qty ≤ quantity applies' }),
  options: z.array(OptionInput).max(MAX_PRODUCT_OPTIONS).optional().default([]),
  setup_fee: moneyInput().optional().default(0).meta({ description: 'Once per calculation/order line' }),
  production_days: z.number().int().min(0).max(365).optional().default(1),
  tax_category: taxCategoryInput.optional().default('standard'),
  tax_exemption_reason: taxExemptionReasonInput,
  stock: StockInput.optional(),
  images: z.array(imageUrl).max(20).optional().default([]),
  ...customsFields,
}))();

export const ProductCreateSchema = /* @__PURE__ */ (() =>
  strictProductObject(productFields).meta({ id: 'ProductCreate', additionalProperties: false }))();

export const ProductUpdateSchema = /* @__PURE__ */ (() =>
  strictProductObject({
    name: productFields.name.optional(),
    description: productFields.description,
    category: productFields.category.optional(),
    is_active: z.boolean().optional(),
    min_qty: quantity('Smallest quantity that can be ordered').optional(),
    max_qty: productFields.max_qty,
    unit: z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,20}$/, 'must be 1–20 lower-case letters, digits or _ (piece, sheet, m2…)')
      .optional(),
    base_price: moneyInput().optional(),
    price_tiers: z.array(TierInput).max(50).optional(),
    options: z.array(OptionInput).max(MAX_PRODUCT_OPTIONS).optional(),
    setup_fee: moneyInput().optional(),
    production_days: z.number().int().min(0).max(365).optional(),
    tax_category: taxCategoryInput.optional(),
    tax_exemption_reason: taxExemptionReasonInput,
    stock: StockInput.optional().meta({ description: 'Only the stock fields sent change; quantity is set absolutely' }),
    images: z.array(imageUrl).max(20).optional(),
    ...customsFields,
  }).meta({
    id: 'ProductUpdate',
    additionalProperties: false,
    description: 'Only the fields sent are changed; null clears an optional field; arrays (tiers, options, images) are replaced whole.',
  }))();

export const ProductListQuerySchema = /* @__PURE__ */ (() =>
  strictProductObject({
    ...paginationQuery,
    category: lineText(100).min(1).optional().meta({ description: 'Exact category, case-insensitive (results in name order)' }),
    is_active: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .transform((value) => value === 'true')
      .optional()
      .meta({ description: 'Active or archived products only' }),
    q: lineText(200).min(1).optional().meta({ description: 'Name prefix, case-insensitive (results in name order)' }),
    starting_after: idCursor('products'),
  })
    .superRefine(cursorOnFirstPage)
    .meta({ additionalProperties: false }))();

export const CalculateBodySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      quantity: quantity('Quantity to price'),
      options: optionChoices({ paper: 'gloss170', finish: 'matte' }).optional().default({}),
    })
    .meta({ id: 'ProductCalculate' }))();

export const PriceQuoteSchema = /* @__PURE__ */ z
  .object({
    product_id: z.number().int(),
    quantity: z.number().int(),
    unit_price: moneyOutput,
    setup_fee: moneyOutput,
    subtotal: moneyOutput,
    tax_category: appliedTaxCategoryOutput,
    tax_rate: z.number().meta({ description: "Percent: the account's rate of the product's category", example: 19 }),
    taxes: TaxesSchema,
    tax: moneyOutput.meta({ description: 'Σ taxes.tax_amount' }),
    total: moneyOutput,
    currency: z.string().meta({ example: 'EUR' }),
    breakdown: z.array(z.object({ label: z.string(), amount: moneyOutput })).meta({ description: 'Lines summing to the subtotal' }),
    production_days: z.number().int(),
  })
  .meta({ id: 'PriceQuote' });

export const ProductDeletedSchema = /* @__PURE__ */ (() =>
  z
    .union([
      z.object({ id: z.number().int(), deleted: z.literal(true) }),
      z.object({ id: z.number().int(), deleted: z.literal(false), archived: z.literal(true), product: ProductSchema }),
    ])
    .meta({ id: 'ProductDeleted', description: 'Deleted, or archived (is_active false) when orders reference the product' }))();

export type ProductCreate = z.output<typeof ProductCreateSchema>;
export type ProductUpdate = z.output<typeof ProductUpdateSchema>;
export type ProductListQuery = z.output<typeof ProductListQuerySchema>;
export type CalculateBody = z.output<typeof CalculateBodySchema>;
export type PriceQuoteView = z.output<typeof PriceQuoteSchema>;
export type ProductDeleted = z.output<typeof ProductDeletedSchema>;

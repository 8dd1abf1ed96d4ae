import * as z from 'zod';
import { appliedTaxCategoryOutput, TaxesSchema, taxCategoryInput, taxExemptionReasonInput } from '#shared/tax/schema';
import { responseSchema } from '#shared/schemas/response';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { optionalText, requiredText } from '#shared/schemas/common';
import { moneyInput, moneyOutput } from '#shared/schemas/money';
import { imageUrl } from '#shared/schemas/url';
import { CSV_COLUMNS, MAX_PAGES, MAX_PRICE_ROWS, MAX_QUANTITY, MAX_VALUE_LENGTH } from './price-table';
import { storedLegacyProduct } from './stored';

const value = (example: string) => requiredText(MAX_VALUE_LENGTH).meta({ example });
const quantity = /* @__PURE__ */ z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_QUANTITY);
const pages = /* @__PURE__ */ z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_PAGES);

export const PriceRowSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      format: value('A4'),
      color: value('4/4'),
      quantity,
      pages,
      price: moneyInput().meta({ description: 'Price of the whole run (net)' }),
    })
    .meta({ id: 'LegacyPriceRow' }))();

export const LegacyProductCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      name: requiredText(200).meta({ example: 'Brochure' }),
      description: optionalText(5000, { multiline: true }),
      image: imageUrl.nullable().optional().meta({ description: 'Main image; shown when gallery_images is empty' }),
      gallery_images: z.array(imageUrl).max(50).optional().default([]),
      brands: z.array(requiredText(MAX_VALUE_LENGTH)).max(100).optional().default([]),
      tax_category: taxCategoryInput.optional().default('standard'),
      tax_exemption_reason: taxExemptionReasonInput,
      prices: z
        .array(PriceRowSchema)
        .max(MAX_PRICE_ROWS)
        .optional()
        .default([])
        .meta({ description: `The lookup table; large tables are better sent as CSV to PUT …/prices (at most ${MAX_PRICE_ROWS} rows)` }),
    })
    .meta({ id: 'LegacyProductCreate' }))();

/** A legacy product as responses show it: derived from the stored field list (stored.ts). */
export const LegacyProductSchema = /* @__PURE__ */ (() => responseSchema(storedLegacyProduct, { id: 'LegacyProduct' }))();

export const LegacyListQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({ ...paginationQuery, starting_after: idCursor('legacy products') }).superRefine(cursorOnFirstPage))();

export const LegacyCalculateBodySchema = /* @__PURE__ */ (() =>
  z.strictObject({ format: value('A4'), color: value('4/4'), quantity, pages }).meta({ id: 'LegacyProductCalculate' }))();

export const LegacyQuoteSchema = /* @__PURE__ */ (() =>
  z
    .object({
      legacy_product_id: z.number().int(),
      format: z.string(),
      color: z.string(),
      quantity: z.number().int(),
      pages: z.number().int(),
      price: moneyOutput.meta({ description: 'From the lookup table (net)' }),
      tax_category: appliedTaxCategoryOutput,
      tax_rate: z.number().meta({ description: "Percent: the account's rate of the product's category", example: 7 }),
      taxes: TaxesSchema,
      tax: moneyOutput.meta({ description: 'Σ taxes.tax_amount' }),
      total: moneyOutput,
      currency: z.string().meta({ example: 'EUR' }),
    })
    .meta({ id: 'LegacyPriceQuote' }))();

export const PriceCsvSchema = /* @__PURE__ */ (() =>
  z.string().meta({
    description: `CSV with the header line ${CSV_COLUMNS.join(',')} (any column order) and one price per line`,
    example: `${CSV_COLUMNS.join(',')}\nA4,4/4,100,8,49.90\nA4,4/4,250,8,89.00`,
  }))();

export type LegacyProductCreate = z.output<typeof LegacyProductCreateSchema>;
export type LegacyProduct = z.output<typeof LegacyProductSchema>;
export type LegacyListQuery = z.output<typeof LegacyListQuerySchema>;
export type LegacyCalculateBody = z.output<typeof LegacyCalculateBodySchema>;
export type LegacyQuote = z.output<typeof LegacyQuoteSchema>;

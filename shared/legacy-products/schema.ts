import * as z from 'zod';
import { paginationQuery } from '#shared/schemas/pagination';
import { optionalText, requiredText, timestamp } from '#shared/schemas/common';
import { moneyInput, moneyOutput } from '#shared/schemas/money';
import { imageUrl } from '#shared/schemas/url';
import { CSV_COLUMNS, MAX_PAGES, MAX_PRICE_ROWS, MAX_QUANTITY, MAX_VALUE_LENGTH } from './price-table';

const value = (example: string) => requiredText(MAX_VALUE_LENGTH).meta({ example });
const quantity = z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_QUANTITY);
const pages = z.number().int('must be an integer').min(1, 'must be at least 1').max(MAX_PAGES);

export const PriceRowSchema = z
  .strictObject({ format: value('A4'), color: value('4/4'), quantity, pages, price: moneyInput().meta({ description: 'Price of the whole run (net)' }) })
  .meta({ id: 'LegacyPriceRow' });

export const LegacyProductCreateSchema = z
  .strictObject({
    name: requiredText(200).meta({ example: 'Brochure' }),
    description: optionalText(5000),
    image: imageUrl.nullable().optional().meta({ description: 'Main image; shown when gallery_images is empty' }),
    gallery_images: z.array(imageUrl).max(50).optional().default([]),
    brands: z.array(requiredText(MAX_VALUE_LENGTH)).max(100).optional().default([]),
    prices: z
      .array(PriceRowSchema)
      .max(MAX_PRICE_ROWS)
      .optional()
      .default([])
      .meta({ description: `The lookup table; large tables are better sent as CSV to PUT …/prices (at most ${MAX_PRICE_ROWS} rows)` }),
  })
  .meta({ id: 'LegacyProductCreate' });

export const LegacyProductSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    brands: z.array(z.string()),
    formats: z.array(z.string()),
    colors: z.array(z.string()),
    quantities: z.array(z.number().int()),
    pages: z.array(z.number().int()),
    images: z.array(z.string()).meta({ description: 'gallery_images, else [image], else the account placeholder — never empty' }),
    image: z.string().nullable(),
    gallery_images: z.array(z.string()),
    price_count: z.number().int().meta({ description: 'Rows in the current price table' }),
    prices_updated_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'LegacyProduct' });

export const LegacyListQuerySchema = z.strictObject({ ...paginationQuery });

export const LegacyCalculateBodySchema = z
  .strictObject({ format: value('A4'), color: value('4/4'), quantity, pages })
  .meta({ id: 'LegacyProductCalculate' });

export const LegacyQuoteSchema = z
  .object({
    legacy_product_id: z.number().int(),
    format: z.string(),
    color: z.string(),
    quantity: z.number().int(),
    pages: z.number().int(),
    price: moneyOutput.meta({ description: 'From the lookup table (net)' }),
    tax_rate: z.number().meta({ description: 'Percent', example: 19 }),
    tax: moneyOutput,
    total: moneyOutput,
    currency: z.string().meta({ example: 'EUR' }),
  })
  .meta({ id: 'LegacyPriceQuote' });

export const PriceCsvSchema = z.string().meta({
  description: `CSV with the header line ${CSV_COLUMNS.join(',')} (any column order) and one price per line`,
  example: `${CSV_COLUMNS.join(',')}\nA4,4/4,100,8,49.90\nA4,4/4,250,8,89.00`,
});

export type LegacyProductCreate = z.output<typeof LegacyProductCreateSchema>;
export type LegacyProduct = z.output<typeof LegacyProductSchema>;
export type LegacyListQuery = z.output<typeof LegacyListQuerySchema>;
export type LegacyCalculateBody = z.output<typeof LegacyCalculateBodySchema>;
export type LegacyQuote = z.output<typeof LegacyQuoteSchema>;

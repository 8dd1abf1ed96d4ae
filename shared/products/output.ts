/**
 * A product as responses show it. Its own module: `GET /v1/products/{id}` needs only this, and a
 * zod schema costs its construction at cold start, so the GET bundle does not build the input
 * schemas of shared/products/schema.ts (about 6 ms of its import, measured).
 */
import * as z from 'zod';
import { timestamp } from '#shared/schemas/common';
import { moneyOutput } from '#shared/schemas/money';

const StockSchema = z.object({ tracked: z.boolean(), quantity: z.number().int(), low_threshold: z.number().int() }).meta({ id: 'ProductStock' });

export const ProductSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    category: z.string(),
    is_active: z.boolean(),
    min_qty: z.number().int(),
    max_qty: z.number().int().nullable(),
    unit: z.string(),
    base_price: moneyOutput,
    price_tiers: z.array(z.object({ min_qty: z.number().int(), unit_price: moneyOutput })),
    options: z.array(
      z.object({
        code: z.string(),
        name: z.string(),
        required: z.boolean(),
        default: z.string().nullable(),
        values: z.array(z.object({ code: z.string(), name: z.string(), price_delta: moneyOutput, price_factor: z.number().nullable() })),
      }),
    ),
    setup_fee: moneyOutput,
    production_days: z.number().int(),
    stock: StockSchema,
    images: z.array(z.string()),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Product' });

export type Product = z.output<typeof ProductSchema>;

import type * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { legacyProductsCalculate, legacyProductsCreate, legacyProductsGet, legacyProductsList, legacyProductsPrices } from '#shared/routes';
import { idPath } from '#shared/schemas/common';
import {
  LegacyCalculateBodySchema,
  LegacyListQuerySchema,
  LegacyProductCreateSchema,
  LegacyProductSchema,
  LegacyQuoteSchema,
  PriceCsvSchema,
} from './schema';

const legacyPath = /* @__PURE__ */ idPath('Legacy product id');

/** Media types accepted by the CSV import. */
export const CSV_MEDIA_TYPES = ['text/csv'] as const;

// Handlers import this module as a namespace (`import * as legacyProductOperations`) and the schemas
// are marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
export const list = {
  route: legacyProductsList,
  query: LegacyListQuerySchema,
  list: true,
} satisfies Operation;
export const create = {
  route: legacyProductsCreate,
  body: LegacyProductCreateSchema,
  status: 201,
  errors: [409],
} satisfies Operation;
export const get = { route: legacyProductsGet, params: legacyPath, errors: [404] } satisfies Operation;
export const calculate = {
  route: legacyProductsCalculate,
  params: legacyPath,
  body: LegacyCalculateBodySchema,
  errors: [404],
} satisfies Operation;
export const prices = {
  route: legacyProductsPrices,
  params: legacyPath,
  rawBody: {
    contentType: 'text/csv',
    schema: PriceCsvSchema,
    description:
      'The whole price table; validated completely (a bad line → 422 naming it, nothing stored), then replaces the previous table at once',
  },
  errors: [404, 409],
} satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  list: LegacyProductSchema,
  create: LegacyProductSchema,
  get: LegacyProductSchema,
  calculate: LegacyQuoteSchema,
  prices: LegacyProductSchema,
} satisfies Record<string, z.ZodType>;

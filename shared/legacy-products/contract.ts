import * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { pathId } from '#shared/schemas/common';
import {
  LegacyCalculateBodySchema,
  LegacyListQuerySchema,
  LegacyProductCreateSchema,
  LegacyProductSchema,
  LegacyQuoteSchema,
  PriceCsvSchema,
} from './schema';

const legacyPath = z.object({ id: pathId.meta({ description: 'Legacy product id', param: { name: 'id', in: 'path' } }) });

/** Media types accepted by the CSV import. */
export const CSV_MEDIA_TYPES = ['text/csv'] as const;

// One export per operation: handlers import this module as a namespace (`import * as legacyProductOperations`),
// so a bundle keeps only the operation it serves. The schema modules imported here still run whole
// at cold start; that is why a GET by id has a contract module of its own (products/get-contract.ts).
export const list = { route: 'legacy-products.list', query: LegacyListQuerySchema, response: LegacyProductSchema, list: true } satisfies Operation;
export const create = { route: 'legacy-products.create', body: LegacyProductCreateSchema, response: LegacyProductSchema, status: 201, errors: [409] } satisfies Operation;
export const get = { route: 'legacy-products.get', params: legacyPath, response: LegacyProductSchema, errors: [404] } satisfies Operation;
export const calculate = { route: 'legacy-products.calculate', params: legacyPath, body: LegacyCalculateBodySchema, response: LegacyQuoteSchema, errors: [404] } satisfies Operation;
export const prices = {
  route: 'legacy-products.prices',
  params: legacyPath,
  rawBody: {
    contentType: 'text/csv',
    schema: PriceCsvSchema,
    description: 'The whole price table; validated completely (a bad line → 422 naming it, nothing stored), then replaces the previous table at once',
  },
  response: LegacyProductSchema,
  errors: [404, 409],
} satisfies Operation;

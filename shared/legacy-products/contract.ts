import * as z from 'zod';
import { defineOperations } from '../http/operation';
import { pathId } from '../schemas/common';
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

export const legacyProductOperations = defineOperations({
  list: { route: 'legacy-products.list', query: LegacyListQuerySchema, response: LegacyProductSchema, list: true },
  create: { route: 'legacy-products.create', body: LegacyProductCreateSchema, response: LegacyProductSchema, status: 201, errors: [409] },
  get: { route: 'legacy-products.get', params: legacyPath, response: LegacyProductSchema, errors: [404] },
  calculate: { route: 'legacy-products.calculate', params: legacyPath, body: LegacyCalculateBodySchema, response: LegacyQuoteSchema, errors: [404] },
  prices: {
    route: 'legacy-products.prices',
    params: legacyPath,
    rawBody: {
      contentType: 'text/csv',
      schema: PriceCsvSchema,
      description: 'The whole price table; validated completely (a bad line → 422 naming it, nothing stored), then replaces the previous table at once',
    },
    response: LegacyProductSchema,
    errors: [404, 409],
  },
});

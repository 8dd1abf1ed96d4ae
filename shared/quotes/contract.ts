/**
 * The quote operations. Handlers import this module as a namespace (`import * as quoteOperations`)
 * and the schemas are marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
 */
import * as z from 'zod';
import { OrderSchema } from '#shared/orders/schema';
import { idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import { customersQuotes, quotesAccept, quotesCreate, quotesGet, quotesList, quotesPdf, quotesReject, quotesUpdate } from '#shared/routes';
import { DocumentQuerySchema, DocumentUrlSchema } from '#shared/invoices/schema';
import {
  CustomerQuotesQuerySchema,
  QuoteCreateSchema,
  QuoteListQuerySchema,
  QuoteRejectSchema,
  QuoteSchema,
  QuoteUpdateSchema,
} from './schema';

const quotePath = /* @__PURE__ */ idPath('Quote id');

export const list = { route: quotesList, query: QuoteListQuerySchema, list: true } satisfies Operation;
// 503 with Retry-After: too many creates of the tenant queue for the number (shared/db/gap-free.ts).
export const create = { route: quotesCreate, body: QuoteCreateSchema, status: 201, etag: true, errors: [503] } satisfies Operation;
export const get = { route: quotesGet, params: quotePath, etag: true, errors: [404] } satisfies Operation;
export const update = {
  route: quotesUpdate,
  params: quotePath,
  body: QuoteUpdateSchema,
  etag: true,
  ifMatch: true,
  errors: [404, 409, 412],
} satisfies Operation;
export const accept = { route: quotesAccept, params: quotePath, status: 201, errors: [404, 409] } satisfies Operation;
export const reject = { route: quotesReject, params: quotePath, body: QuoteRejectSchema, errors: [404, 409] } satisfies Operation;
export const pdf = {
  route: quotesPdf,
  params: quotePath,
  query: DocumentQuerySchema,
  documents: {
    contentTypes: [{ type: 'application/pdf', binary: true }],
    description:
      'The quote PDF ("Angebot / Quote") with `Content-Disposition: inline; filename="QUO-….pdf"` when the first Accept type is application/pdf; with `format=url`, JSON with a presigned URL valid 15 minutes.',
    redirects: 'Without `Accept: application/pdf`: a redirect to the presigned URL.',
  },
  errors: [404],
} satisfies Operation;
export const customerQuotes = {
  route: customersQuotes,
  params: /* @__PURE__ */ idPath('Customer id'),
  query: CustomerQuotesQuerySchema,
  list: true,
  errors: [404],
} satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  list: QuoteSchema,
  create: QuoteSchema,
  get: QuoteSchema,
  update: QuoteSchema,
  accept: /* @__PURE__ */ z
    .object({ quote: QuoteSchema, order: OrderSchema })
    .meta({ id: 'QuoteAccepted', description: 'The accepted quote and the order it became' }),
  reject: QuoteSchema,
  pdf: DocumentUrlSchema,
  customerQuotes: QuoteSchema,
} satisfies Record<string, z.ZodType>;

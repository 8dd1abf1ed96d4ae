/**
 * The credit note operations. Handlers import this module as a namespace (`import * as creditNoteOperations`)
 * and the schemas are marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
 */
import type * as z from 'zod';
import { DocumentQuerySchema, DocumentUrlSchema, XmlQuerySchema } from '#shared/invoices/schema';
import { idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import { creditNotesCreate, creditNotesGet, creditNotesList, creditNotesPdf, creditNotesRefund, creditNotesXml } from '#shared/routes';
import { CreditNoteCreateSchema, CreditNoteListQuerySchema, CreditNoteSchema, RefundCreateSchema } from './schema';

const creditNotePath = /* @__PURE__ */ idPath('Credit note id');

export const createCreditNote = {
  route: creditNotesCreate,
  params: /* @__PURE__ */ idPath('Invoice id'),
  body: CreditNoteCreateSchema,
  status: 201,
  errors: [404, 409],
} satisfies Operation;
export const listCreditNotes = { route: creditNotesList, query: CreditNoteListQuerySchema, list: true } satisfies Operation;
export const getCreditNote = { route: creditNotesGet, params: creditNotePath, errors: [404] } satisfies Operation;
export const creditNotePdf = {
  route: creditNotesPdf,
  params: creditNotePath,
  query: DocumentQuerySchema,
  documents: {
    contentTypes: [{ type: 'application/pdf', binary: true }],
    description:
      'The PDF (ZUGFeRD / Factur-X: PDF/A-3 with the XRechnung CII XML, type 381, embedded) with `Content-Disposition: inline; filename="CN-….pdf"` ' +
      'when the first Accept type is application/pdf; with `format=url`, JSON with a presigned URL valid 15 minutes.',
    redirects:
      'Without `Accept: application/pdf` (a browser, `curl` without -H): a redirect to the presigned URL, which API Gateway can serve as bytes to any client.',
  },
  errors: [404],
} satisfies Operation;
export const creditNoteXml = {
  route: creditNotesXml,
  params: creditNotePath,
  query: XmlQuerySchema,
  documents: {
    contentTypes: [{ type: 'application/xml', binary: false }],
    description:
      'The XRechnung e-invoice (EN 16931, type code 381, the corrected invoice as BT-25/BT-26), UN/CEFACT CII or OASIS UBL 2.1 CreditNote, as a download.',
  },
  errors: [404],
} satisfies Operation;
export const refundCreditNote = {
  route: creditNotesRefund,
  params: creditNotePath,
  body: RefundCreateSchema,
  status: 201,
  errors: [404, 409],
} satisfies Operation;

/** What each operation answers (its `data`; an element of it for a list), for the OpenAPI document. */
export const responses = {
  createCreditNote: CreditNoteSchema,
  listCreditNotes: CreditNoteSchema,
  getCreditNote: CreditNoteSchema,
  creditNotePdf: DocumentUrlSchema,
  creditNoteXml: DocumentUrlSchema,
  refundCreditNote: CreditNoteSchema,
} satisfies Record<string, z.ZodType>;

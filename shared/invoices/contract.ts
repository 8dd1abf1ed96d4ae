/**
 * The invoice operations. Handlers import this module as a namespace (`import * as invoiceOperations`)
 * and the schemas are marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
 */
import type * as z from 'zod';
import { idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import {
  customersInvoices,
  invoicesCreate,
  invoicesGet,
  invoicesList,
  invoicesPay,
  invoicesPdf,
  invoicesSend,
  invoicesVoid,
  invoicesXml,
} from '#shared/routes';
import {
  CustomerInvoicesQuerySchema,
  DocumentQuerySchema,
  DocumentUrlSchema,
  InvoiceCreateSchema,
  InvoiceListQuerySchema,
  InvoiceSchema,
  InvoiceSendSchema,
  PaymentCreateSchema,
  XmlQuerySchema,
} from './schema';

const invoicePath = /* @__PURE__ */ idPath('Invoice id');

export const listInvoices = { route: invoicesList, query: InvoiceListQuerySchema, list: true } satisfies Operation;
export const createInvoice = {
  route: invoicesCreate,
  body: InvoiceCreateSchema,
  status: 201,
  // 503 with Retry-After: too many creates of the tenant queue for the number (shared/db/gap-free.ts).
  errors: [404, 409, 503],
} satisfies Operation;
export const getInvoice = { route: invoicesGet, params: invoicePath, errors: [404] } satisfies Operation;
export const invoicePdf = {
  route: invoicesPdf,
  params: invoicePath,
  query: DocumentQuerySchema,
  documents: {
    contentTypes: [{ type: 'application/pdf', binary: true }],
    description:
      'The PDF (ZUGFeRD / Factur-X: PDF/A-3 with the XRechnung CII XML embedded) with `Content-Disposition: inline; filename="INV-….pdf"` ' +
      'when the first Accept type is application/pdf; with `format=url`, JSON with a presigned URL valid 15 minutes.',
    redirects:
      'Without `Accept: application/pdf` (a browser, `curl` without -H): a redirect to the presigned URL, which API Gateway can serve as bytes to any client.',
  },
  errors: [404],
} satisfies Operation;
export const invoiceXml = {
  route: invoicesXml,
  params: invoicePath,
  query: XmlQuerySchema,
  documents: {
    contentTypes: [{ type: 'application/xml', binary: false }],
    description: 'The XRechnung e-invoice (EN 16931), UN/CEFACT CII or OASIS UBL 2.1, as a download.',
  },
  errors: [404],
} satisfies Operation;
export const payInvoice = {
  route: invoicesPay,
  params: invoicePath,
  body: PaymentCreateSchema,
  status: 201,
  errors: [404, 409],
} satisfies Operation;
export const voidInvoice = { route: invoicesVoid, params: invoicePath, errors: [404, 409] } satisfies Operation;
export const sendInvoice = {
  route: invoicesSend,
  params: invoicePath,
  body: InvoiceSendSchema,
  errors: [404, 409, 502],
} satisfies Operation;
export const listCustomerInvoices = {
  route: customersInvoices,
  params: /* @__PURE__ */ idPath('Customer id'),
  query: CustomerInvoicesQuerySchema,
  list: true,
  errors: [404],
} satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  listInvoices: InvoiceSchema,
  createInvoice: InvoiceSchema,
  getInvoice: InvoiceSchema,
  invoicePdf: DocumentUrlSchema,
  invoiceXml: DocumentUrlSchema,
  payInvoice: InvoiceSchema,
  voidInvoice: InvoiceSchema,
  sendInvoice: InvoiceSchema,
  listCustomerInvoices: InvoiceSchema,
} satisfies Record<string, z.ZodType>;

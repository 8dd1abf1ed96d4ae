/**
 * The invoice PDF: bytes when the client's first Accept type is application/pdf (API Gateway only
 * returns bytes then), a redirect to a presigned URL for any other client, JSON with that URL for
 * `format=url` (docs/invoices.md).
 */
import { defineHandler } from '#shared/http/handler';
import { acceptsFirst, documentResult, ok, redirect } from '#shared/http/envelope';
import * as invoiceOperations from '#shared/invoices/contract';
import { invoiceDocument, presignedPdf } from '#shared/invoices/documents';
import { requireInvoice } from '#shared/invoices/repository';

export const handler = defineHandler(invoiceOperations.invoicePdf, async ({ tenant, params, query, headers }) => {
  const invoice = await requireInvoice(tenant, params.id);
  if (query.format === 'url') return ok(await presignedPdf(tenant, invoice));
  if (!acceptsFirst(headers.accept, 'application/pdf')) return redirect((await presignedPdf(tenant, invoice)).url);
  const pdf = await invoiceDocument(tenant, invoice, 'pdf');
  return documentResult(pdf.bytes, pdf.contentType, `inline; filename="${pdf.filename}"`, { 'X-Document-Cached': String(pdf.cached) });
});

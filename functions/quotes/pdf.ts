/** The quote PDF, as the invoice PDF: bytes for `Accept: application/pdf`, else a redirect to a presigned URL; `format=url`: JSON. */
import { defineHandler } from '#shared/http/handler';
import { acceptsFirst, documentResult, ok, redirect } from '#shared/http/envelope';
import * as quoteOperations from '#shared/quotes/contract';
import { presignedQuotePdf, quotePdf } from '#shared/quotes/documents';
import { requireQuote } from '#shared/quotes/repository';

export const handler = defineHandler(quoteOperations.pdf, async ({ tenant, params, query, headers }) => {
  const quote = await requireQuote(tenant, params.id);
  if (query.format === 'url') return ok(await presignedQuotePdf(tenant, quote));
  if (!acceptsFirst(headers.accept, 'application/pdf')) return redirect((await presignedQuotePdf(tenant, quote)).url);
  const pdf = await quotePdf(tenant, quote);
  return documentResult(pdf.bytes, 'application/pdf', `inline; filename="${pdf.filename}"`, { 'X-Document-Cached': String(pdf.cached) });
});

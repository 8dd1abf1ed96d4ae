/**
 * The credit note PDF, as the invoice PDF is served: bytes when the client's first Accept type is
 * application/pdf, a redirect to a presigned URL for any other client, JSON with that URL for
 * `format=url` (docs/invoices.md).
 */
import * as creditNoteOperations from '#shared/credit-notes/contract';
import { creditNoteDocument, presignedCreditNotePdf } from '#shared/credit-notes/documents';
import { requireCreditNote } from '#shared/credit-notes/repository';
import { acceptsFirst, documentResult, ok, redirect } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

export const handler = defineHandler(creditNoteOperations.creditNotePdf, async ({ tenant, params, query, headers }) => {
  const note = await requireCreditNote(tenant, params.id);
  if (query.format === 'url') return ok(await presignedCreditNotePdf(tenant, note));
  if (!acceptsFirst(headers.accept, 'application/pdf')) return redirect((await presignedCreditNotePdf(tenant, note)).url);
  const pdf = await creditNoteDocument(tenant, note, 'pdf');
  return documentResult(pdf.bytes, pdf.contentType, `inline; filename="${pdf.filename}"`, { 'X-Document-Cached': String(pdf.cached) });
});

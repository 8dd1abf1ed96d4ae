import * as creditNoteOperations from '#shared/credit-notes/contract';
import { creditNoteDocument } from '#shared/credit-notes/documents';
import { requireCreditNote } from '#shared/credit-notes/repository';
import { documentResult } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

export const handler = defineHandler(creditNoteOperations.creditNoteXml, async ({ tenant, params, query }) => {
  const xml = await creditNoteDocument(tenant, await requireCreditNote(tenant, params.id), query.syntax);
  // XML is text: it passes API Gateway as it is, whatever the client accepts.
  return documentResult(new TextDecoder().decode(xml.bytes), 'application/xml; charset=utf-8', `attachment; filename="${xml.filename}"`, {
    'X-Document-Cached': String(xml.cached),
  });
});

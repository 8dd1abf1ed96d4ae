import { defineHandler } from '#shared/http/handler';
import { documentResult } from '#shared/http/envelope';
import * as invoiceOperations from '#shared/invoices/contract';
import { invoiceDocument } from '#shared/invoices/documents';
import { requireInvoice } from '#shared/invoices/repository';

export const handler = defineHandler(invoiceOperations.invoiceXml, async ({ tenant, params, query }) => {
  const xml = await invoiceDocument(tenant, await requireInvoice(tenant, params.id), query.syntax);
  // XML is text: it passes API Gateway as it is, whatever the client accepts.
  return documentResult(new TextDecoder().decode(xml.bytes), 'application/xml; charset=utf-8', `attachment; filename="${xml.filename}"`, {
    'X-Document-Cached': String(xml.cached),
  });
});

import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import * as invoiceOperations from '#shared/invoices/contract';
import { listInvoices } from '#shared/invoices/service';

export const handler = defineHandler(invoiceOperations.listInvoices, async ({ tenant, query }) => {
  const { items, total, capped, hasMore } = await listInvoices(tenant, query);
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import * as invoiceOperations from '#shared/invoices/contract';
import { listCustomerInvoices } from '#shared/invoices/service';

export const handler = defineHandler(invoiceOperations.listCustomerInvoices, async ({ tenant, params, query }) => {
  const { items, total, capped, hasMore } = await listCustomerInvoices(tenant, params.id, query);
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

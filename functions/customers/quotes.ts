import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import * as quoteOperations from '#shared/quotes/contract';
import { listCustomerQuotes } from '#shared/quotes/service';

export const handler = defineHandler(quoteOperations.customerQuotes, async ({ tenant, params, query }) => {
  const { items, total, capped, hasMore } = await listCustomerQuotes(tenant, params.id, query);
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import { listCustomers } from '#shared/customers/service';

export const handler = defineHandler(customerOperations.list, async ({ tenant, query }) => {
  const { items, total, capped, hasMore } = await listCustomers(tenant, query);
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

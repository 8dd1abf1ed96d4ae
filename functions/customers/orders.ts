import * as orderOperations from '#shared/orders/contract';
import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import { listCustomerOrders } from '#shared/orders/service';

export const handler = defineHandler(orderOperations.customerOrders, async ({ tenant, params, query }) => {
  const { items, total, capped, hasMore } = await listCustomerOrders(tenant, params.id, query);
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

import * as orderOperations from '#shared/orders/contract';
import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import { orderListFor } from '#shared/orders/ownership';
import { listOrders } from '#shared/orders/service';

export const handler = defineHandler(orderOperations.list, async ({ tenant, principal, query }) => {
  const { items, total, capped, hasMore } = await listOrders(tenant, orderListFor(principal, query));
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

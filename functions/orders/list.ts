import * as orderOperations from '#shared/orders/contract';
import { defineHandler } from '#shared/http/handler';
import { listed, pagination } from '#shared/http/envelope';
import { listOrders } from '#shared/orders/service';

export const handler = defineHandler(orderOperations.list, async ({ tenant, query }) => {
  const { items, total, capped, hasMore } = await listOrders(tenant, query);
  const nextCursor = hasMore ? String(items.at(-1)!.id) : null;
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

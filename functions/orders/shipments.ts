import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import * as shipmentOperations from '#shared/shipments/contract';
import { listOrderShipments } from '#shared/shipments/service';

export const handler = defineHandler(shipmentOperations.orderShipments, async ({ tenant, params, query }) => {
  const { items, total, capped, hasMore } = await listOrderShipments(tenant, params.id, query);
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

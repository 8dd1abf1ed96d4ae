import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { listMachines } from '#shared/production/machines';

export const handler = defineHandler(productionOperations.listMachines, async ({ tenant, query }) => {
  const { items, total, capped, hasMore } = await listMachines(tenant, query);
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

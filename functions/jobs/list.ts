import { defineHandler } from '#shared/http/handler';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { listJobs } from '#shared/fulfilment/job-moves';

export const handler = defineHandler(productionOperations.listJobs, async ({ tenant, query }) => {
  const { items, total, capped, hasMore } = await listJobs(tenant, query);
  const nextCursor = nextIdCursor(items, hasMore);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

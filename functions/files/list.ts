import * as fileOperations from '#shared/files/contract';
import { listFiles } from '#shared/files/service';
import { listed, pagination } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

export const handler = defineHandler(fileOperations.list, async ({ tenant, principal, query }) => {
  const { items, total, capped, hasMore } = await listFiles(tenant, principal, query);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore }));
});

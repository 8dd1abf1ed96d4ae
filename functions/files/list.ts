import * as fileOperations from '#shared/files/contract';
import { listFiles } from '#shared/files/service';
import { listed, pagination } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

export const handler = defineHandler(fileOperations.list, async ({ tenant, principal, query }) => {
  const { items, total, capped, hasMore, next } = await listFiles(tenant, principal, query);
  // The next page starts after `next`: the page's last file, or the last one a filter examined (a short page).
  const nextCursor = next === undefined ? null : String(next);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
});

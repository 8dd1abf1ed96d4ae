import * as legacyProductOperations from '#shared/legacy-products/contract';
import { defineHandler } from '#shared/http/handler';
import { storefrontQuota } from '#shared/limits/quota';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import { listLegacyProducts } from '#shared/legacy-products/service';

export const handler = defineHandler(
  legacyProductOperations.list,
  async ({ tenant, query }) => {
    const { items, hasMore, total } = await listLegacyProducts(tenant, query);
    const nextCursor = nextIdCursor(items, hasMore);
    return listed(items, pagination(query.page, query.per_page, total, { hasMore, nextCursor }));
  },
  { quota: storefrontQuota },
);

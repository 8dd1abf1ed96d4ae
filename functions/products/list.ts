import * as productOperations from '#shared/products/contract';
import { defineHandler } from '#shared/http/handler';
import { storefrontQuota } from '#shared/limits/quota';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import { listProducts } from '#shared/products/service';

export const handler = defineHandler(
  productOperations.list,
  async ({ tenant, principal, query }) => {
    const { items, total, capped, hasMore } = await listProducts(tenant, principal, query);
    const nextCursor = nextIdCursor(items, hasMore);
    return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor }));
  },
  { quota: storefrontQuota },
);

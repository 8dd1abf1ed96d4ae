import * as legacyProductOperations from '#shared/legacy-products/contract';
import { defineHandler } from '#shared/http/handler';
import { storefrontQuota } from '#shared/limits/quota';
import { listed, pagination } from '#shared/http/envelope';
import { listLegacyProducts } from '#shared/legacy-products/service';

export const handler = defineHandler(
  legacyProductOperations.list,
  async ({ tenant, query }) => {
    const { items, total } = await listLegacyProducts(tenant, query);
    return listed(items, pagination(query.page, query.per_page, total));
  },
  { quota: storefrontQuota },
);

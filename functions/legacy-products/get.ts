import * as legacyProductOperations from '#shared/legacy-products/contract';
import { defineHandler } from '#shared/http/handler';
import { storefrontQuota } from '#shared/limits/quota';
import { ok } from '#shared/http/envelope';
import { getLegacyProduct } from '#shared/legacy-products/service';

export const handler = defineHandler(
  legacyProductOperations.get,
  async ({ tenant, params }) => ok(await getLegacyProduct(tenant, params.id)),
  { quota: storefrontQuota },
);

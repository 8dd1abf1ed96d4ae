import * as productOperations from '#shared/products/contract';
import { defineHandler } from '#shared/http/handler';
import { storefrontQuota } from '#shared/limits/quota';
import { ok } from '#shared/http/envelope';
import { getProduct } from '#shared/products/service';

export const handler = defineHandler(
  productOperations.get,
  async ({ tenant, principal, params }) => ok(await getProduct(tenant, principal, params.id)),
  { quota: storefrontQuota },
);

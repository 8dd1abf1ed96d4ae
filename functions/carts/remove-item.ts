import * as cartOperations from '#shared/carts/contract';
import { removeItem, sessionCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(
  cartOperations.removeItem,
  async ({ tenant, params }) => ok(await removeItem(tenant, sessionCart(params.id), params.itemId)),
  { quota: storefrontQuota },
);

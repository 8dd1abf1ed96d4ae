import * as cartOperations from '#shared/carts/contract';
import { getCart, sessionCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(cartOperations.get, async ({ tenant, params }) => ok(await getCart(tenant, sessionCart(params.id))), {
  quota: storefrontQuota,
});

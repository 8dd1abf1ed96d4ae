import * as cartOperations from '#shared/carts/contract';
import { deleteCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(cartOperations.remove, async ({ tenant, params }) => ok(await deleteCart(tenant, params.id)), {
  quota: storefrontQuota,
});

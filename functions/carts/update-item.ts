import * as cartOperations from '#shared/carts/contract';
import { updateItem, sessionCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(
  cartOperations.updateItem,
  async ({ tenant, params, body }) => ok(await updateItem(tenant, sessionCart(params.id), params.itemId, body)),
  { quota: storefrontQuota },
);

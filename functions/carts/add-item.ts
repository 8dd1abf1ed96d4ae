import * as cartOperations from '#shared/carts/contract';
import { addItem, sessionCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(
  cartOperations.addItem,
  async ({ tenant, params, body }) => created(await addItem(tenant, sessionCart(params.id), body)),
  { quota: storefrontQuota, idempotency: idempotent() },
);

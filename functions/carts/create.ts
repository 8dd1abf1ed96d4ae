import * as cartOperations from '#shared/carts/contract';
import { createSessionCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(cartOperations.create, async ({ tenant, body }) => created(await createSessionCart(tenant, body)), {
  quota: storefrontQuota,
  idempotency: idempotent(),
});

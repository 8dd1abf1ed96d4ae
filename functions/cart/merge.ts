import { signedInCustomer } from '#shared/auth/principal';
import * as cartOperations from '#shared/carts/contract';
import { mergeCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';

export const handler = defineHandler(
  cartOperations.customerMerge,
  async ({ tenant, principal, body }) => ok(await mergeCart(tenant, signedInCustomer(principal), body.cart_id)),
  { idempotency: idempotent() },
);

import { signedInCustomer } from '#shared/auth/principal';
import * as cartOperations from '#shared/carts/contract';
import { getCart, customerCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';

export const handler = defineHandler(cartOperations.customerGet, async ({ tenant, principal }) =>
  ok(await getCart(tenant, customerCart(signedInCustomer(principal)))),
);

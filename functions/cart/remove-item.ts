import { signedInCustomer } from '#shared/auth/principal';
import * as cartOperations from '#shared/carts/contract';
import { removeItem, customerCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';

export const handler = defineHandler(cartOperations.customerRemoveItem, async ({ tenant, principal, params }) =>
  ok(await removeItem(tenant, customerCart(signedInCustomer(principal)), params.itemId)),
);

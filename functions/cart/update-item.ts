import { signedInCustomer } from '#shared/auth/principal';
import * as cartOperations from '#shared/carts/contract';
import { updateItem, customerCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';

export const handler = defineHandler(cartOperations.customerUpdateItem, async ({ tenant, principal, params, body }) =>
  ok(await updateItem(tenant, customerCart(signedInCustomer(principal)), params.itemId, body)),
);

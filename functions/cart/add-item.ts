import { signedInCustomer } from '#shared/auth/principal';
import * as cartOperations from '#shared/carts/contract';
import { addItem, customerCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';

export const handler = defineHandler(
  cartOperations.customerAddItem,
  async ({ tenant, principal, body }) => created(await addItem(tenant, customerCart(signedInCustomer(principal)), body)),
  { idempotency: idempotent() },
);

import { signedInCustomer } from '#shared/auth/principal';
import { customerCheckoutTerms } from '#shared/carts/checkout-terms';
import * as cartOperations from '#shared/carts/contract';
import { checkout } from '#shared/carts/checkout';
import { customerCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { created, ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import { etagHeader } from '#shared/orders/preconditions';

export const handler = defineHandler(
  cartOperations.customerCheckout,
  async ({ tenant, principal, body }) => {
    const customerId = signedInCustomer(principal);
    const terms = customerCheckoutTerms(customerId, body);
    const { order, created: isNew } = await checkout(tenant, customerCart(customerId), body.version, terms, customerId);
    return isNew ? created(order, etagHeader(order)) : ok(order, etagHeader(order));
  },
  { idempotency: idempotent() },
);

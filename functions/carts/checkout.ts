import { sessionCheckoutTerms } from '#shared/carts/checkout-terms';
import * as cartOperations from '#shared/carts/contract';
import { checkout } from '#shared/carts/checkout';
import { sessionCart } from '#shared/carts/service';
import { defineHandler } from '#shared/http/handler';
import { created, ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import { storefrontQuota } from '#shared/limits/quota';
import { etagHeader } from '#shared/orders/preconditions';

export const handler = defineHandler(
  cartOperations.checkout,
  async ({ tenant, principal, params, body }) => {
    const terms = sessionCheckoutTerms(principal, body);
    const { order, created: isNew } = await checkout(tenant, sessionCart(params.id), body.version, terms);
    return isNew ? created(order, etagHeader(order)) : ok(order, etagHeader(order));
  },
  { quota: storefrontQuota, idempotency: idempotent() },
);

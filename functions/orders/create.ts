import * as orderOperations from '#shared/orders/contract';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { created } from '#shared/http/envelope';
import { orderCreationFor, orderOptionsFor } from '#shared/orders/ownership';
import { etagHeader } from '#shared/orders/preconditions';
import { createOrder } from '#shared/orders/service';

export const handler = defineHandler(
  orderOperations.create,
  async ({ tenant, principal, body }) => {
    const order = await createOrder(tenant, orderCreationFor(principal, body), orderOptionsFor(principal));
    return created(order, etagHeader(order));
  },
  { idempotency: idempotent() },
);

import * as orderOperations from '#shared/orders/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { orderReaderOf } from '#shared/orders/ownership';
import { etagHeader } from '#shared/orders/preconditions';
import { getOrder } from '#shared/orders/service';

export const handler = defineHandler(orderOperations.get, async ({ tenant, principal, params }) => {
  const order = await getOrder(tenant, params.id, orderReaderOf(principal));
  return ok(order, etagHeader(order));
});

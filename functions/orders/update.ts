import * as orderOperations from '#shared/orders/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { etagHeader, parseIfMatch } from '#shared/orders/preconditions';
import { changeOrder } from '#shared/fulfilment/order-changes';

export const handler = defineHandler(orderOperations.update, async ({ tenant, principal, params, body, headers }) => {
  const order = await changeOrder(tenant, params.id, body, parseIfMatch(headers['if-match']), principal.keyPrefix);
  return ok(order, etagHeader(order));
});

import { customerOperations } from '../../shared/customers/contract';
import { defineHandler } from '../../shared/http/handler';
import { listed } from '../../shared/http/envelope';
import { pagination } from '../../shared/http/pagination';
import { getCustomer } from '../../shared/customers/service';

/** Orders arrive with the orders slice; until then a known customer has none (an unknown one is 404). */
export const handler = defineHandler(customerOperations.orders, async ({ tenant, params, query }) => {
  await getCustomer(tenant, params.id);
  return listed([], pagination(query.page, query.per_page, 0));
});

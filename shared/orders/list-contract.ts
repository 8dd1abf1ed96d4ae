import * as z from 'zod';
import { defineOperations } from '../http/operation';
import { pathId } from '../schemas/common';
import { CustomerOrdersQuerySchema, OrderListQuerySchema } from './queries';
import { OrderSchema } from './schema';

const customerPath = z.object({ id: pathId.meta({ description: 'Customer id', param: { name: 'id', in: 'path' } }) });

/**
 * The order lists. `GET /v1/customers/{id}/orders` is defined here, with the orders' schemas, so
 * the customer handlers' bundles do not carry them.
 */
export const orderListOperations = defineOperations({
  list: { route: 'orders.list', query: OrderListQuerySchema, response: OrderSchema, list: true },
  customerOrders: { route: 'customers.orders', params: customerPath, query: CustomerOrdersQuerySchema, response: OrderSchema, list: true, errors: [404] },
});

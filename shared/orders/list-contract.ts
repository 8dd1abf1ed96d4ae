import * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { pathId } from '#shared/schemas/common';
import { CustomerOrdersQuerySchema, OrderListQuerySchema } from './queries';
import { OrderSchema } from './schema';

const customerPath = z.object({ id: pathId.meta({ description: 'Customer id', param: { name: 'id', in: 'path' } }) });

/**
 * The order lists. `GET /v1/customers/{id}/orders` is defined here, with the orders' schemas, so
 * the customer handlers' bundles do not carry them.
 */
// One export per operation: handlers import this module as a namespace (`import * as orderListOperations`),
// so a bundle keeps only the operation it serves. The schema modules imported here still run whole
// at cold start; that is why a GET by id has a contract module of its own (products/get-contract.ts).
export const list = { route: 'orders.list', query: OrderListQuerySchema, response: OrderSchema, list: true } satisfies Operation;
export const customerOrders = { route: 'customers.orders', params: customerPath, query: CustomerOrdersQuerySchema, response: OrderSchema, list: true, errors: [404] } satisfies Operation;

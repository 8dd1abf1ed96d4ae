import * as z from 'zod';
import { defineOperations } from '../http/operation';
import { pathId } from '../schemas/common';
import { OrderCreateSchema, OrderSchema, OrderUpdateSchema } from './schema';

const orderPath = z.object({ id: pathId.meta({ description: 'Order id', param: { name: 'id', in: 'path' } }) });

/** Single-order operations; the lists are in list-contract.ts (their query schemas stay out of these bundles). */
export const orderOperations = defineOperations({
  create: { route: 'orders.create', body: OrderCreateSchema, response: OrderSchema, status: 201, errors: [409] },
  get: { route: 'orders.get', params: orderPath, response: OrderSchema, errors: [404] },
  update: { route: 'orders.update', params: orderPath, body: OrderUpdateSchema, response: OrderSchema, errors: [404, 409, 412] },
});

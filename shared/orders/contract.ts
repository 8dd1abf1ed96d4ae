import * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { pathId } from '#shared/schemas/common';
import { OrderCreateSchema, OrderSchema, OrderUpdateSchema } from './schema';

const orderPath = z.object({ id: pathId.meta({ description: 'Order id', param: { name: 'id', in: 'path' } }) });

/** Single-order operations; the lists are in list-contract.ts (their query schemas stay out of these bundles). */
// One export per operation: handlers import this module as a namespace (`import * as orderOperations`),
// so a bundle keeps only the operation it serves. The schema modules imported here still run whole
// at cold start; that is why a GET by id has a contract module of its own (products/get-contract.ts).
export const create = { route: 'orders.create', body: OrderCreateSchema, response: OrderSchema, status: 201, errors: [409] } satisfies Operation;
export const get = { route: 'orders.get', params: orderPath, response: OrderSchema, errors: [404] } satisfies Operation;
export const update = { route: 'orders.update', params: orderPath, body: OrderUpdateSchema, response: OrderSchema, errors: [404, 409, 412] } satisfies Operation;

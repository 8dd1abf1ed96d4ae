/**
 * `GET /v1/customers/{id}` on its own (shared/customers/contract.ts has the other operations): the
 * GET bundle then builds only the customer's response schema at cold start, none of the inputs.
 */
import * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { pathId } from '#shared/schemas/common';
import { CustomerSchema } from './output';

export const customerPath = z.object({ id: pathId.meta({ description: 'Customer id', param: { name: 'id', in: 'path' } }) });

export const get = { route: 'customers.get', params: customerPath, response: CustomerSchema, errors: [404] } satisfies Operation;

/**
 * `GET /v1/products/{id}` on its own (shared/products/contract.ts has the other operations): the
 * GET bundle then builds only the product's response schema at cold start, none of the inputs.
 */
import * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { pathId } from '#shared/schemas/common';
import { ProductSchema } from './output';

export const productPath = z.object({ id: pathId.meta({ description: 'Product id', param: { name: 'id', in: 'path' } }) });

export const get = { route: 'products.get', params: productPath, response: ProductSchema, errors: [404] } satisfies Operation;

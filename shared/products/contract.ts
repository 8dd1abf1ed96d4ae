import * as z from 'zod';
import type { Operation } from '../http/operation';
import { pathId } from '../schemas/common';
import {
  CalculateBodySchema,
  PriceQuoteSchema,
  ProductCreateSchema,
  ProductDeletedSchema,
  ProductListQuerySchema,
  ProductSchema,
  ProductUpdateSchema,
} from './schema';

const productPath = z.object({ id: pathId.meta({ description: 'Product id', param: { name: 'id', in: 'path' } }) });

// One export per operation: handlers import this module as a namespace (`import * as productOperations`),
// so a bundle keeps, and builds at cold start, only the schemas of its own operation.
export const list = { route: 'products.list', query: ProductListQuerySchema, response: ProductSchema, list: true } satisfies Operation;
export const create = { route: 'products.create', body: ProductCreateSchema, response: ProductSchema, status: 201 } satisfies Operation;
export const get = { route: 'products.get', params: productPath, response: ProductSchema, errors: [404] } satisfies Operation;
export const update = { route: 'products.update', params: productPath, body: ProductUpdateSchema, response: ProductSchema, errors: [404, 409] } satisfies Operation;
const deleteOperation = { route: 'products.delete', params: productPath, response: ProductDeletedSchema, errors: [404, 409] } satisfies Operation;
export { deleteOperation as delete };
export const calculate = { route: 'products.calculate', params: productPath, body: CalculateBodySchema, response: PriceQuoteSchema, errors: [404] } satisfies Operation;

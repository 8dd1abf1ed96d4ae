import type { Operation } from '#shared/schemas/operation';
import { productPath } from './get-contract';
import {
  CalculateBodySchema,
  PriceQuoteSchema,
  ProductCreateSchema,
  ProductDeletedSchema,
  ProductListQuerySchema,
  ProductSchema,
  ProductUpdateSchema,
} from './schema';

// One export per operation: handlers import this module as a namespace (`import * as productOperations`),
// so a bundle keeps only the operation it serves. The schema modules imported here still run whole
// at cold start; that is why a GET by id has a contract module of its own (products/get-contract.ts).
export const list = { route: 'products.list', query: ProductListQuerySchema, response: ProductSchema, list: true } satisfies Operation;
export const create = { route: 'products.create', body: ProductCreateSchema, response: ProductSchema, status: 201 } satisfies Operation;
export const update = { route: 'products.update', params: productPath, body: ProductUpdateSchema, response: ProductSchema, errors: [404, 409] } satisfies Operation;
const deleteOperation = { route: 'products.delete', params: productPath, response: ProductDeletedSchema, errors: [404, 409] } satisfies Operation;
export { deleteOperation as delete };
export const calculate = { route: 'products.calculate', params: productPath, body: CalculateBodySchema, response: PriceQuoteSchema, errors: [404] } satisfies Operation;

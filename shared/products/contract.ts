/**
 * The product operations: route id and the schemas of path, query, body and answer. Handlers
 * import this module as a namespace (`import * as productOperations`) and the schemas are
 * marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
 */
import type * as z from 'zod';
import { idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import { productsCalculate, productsCreate, productsDelete, productsGet, productsList, productsUpdate } from '#shared/routes';
import {
  CalculateBodySchema,
  PriceQuoteSchema,
  ProductCreateSchema,
  ProductDeletedSchema,
  ProductListQuerySchema,
  ProductSchema,
  ProductUpdateSchema,
} from './schema';

const productPath = /* @__PURE__ */ idPath('Product id');

export const list = { route: productsList, query: ProductListQuerySchema, list: true } satisfies Operation;
export const create = { route: productsCreate, body: ProductCreateSchema, status: 201 } satisfies Operation;
export const get = { route: productsGet, params: productPath, errors: [404] } satisfies Operation;
export const update = {
  route: productsUpdate,
  params: productPath,
  body: ProductUpdateSchema,
  errors: [404, 409],
} satisfies Operation;
const deleteOperation = {
  route: productsDelete,
  params: productPath,
  errors: [404, 409],
} satisfies Operation;
export { deleteOperation as delete };
export const calculate = {
  route: productsCalculate,
  params: productPath,
  body: CalculateBodySchema,
  errors: [404],
} satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  delete: ProductDeletedSchema,
  list: ProductSchema,
  create: ProductSchema,
  get: ProductSchema,
  update: ProductSchema,
  calculate: PriceQuoteSchema,
} satisfies Record<string, z.ZodType>;

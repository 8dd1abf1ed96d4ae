import * as z from 'zod';
import { defineOperations } from '../http/operation';
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

export const productOperations = defineOperations({
  list: { route: 'products.list', query: ProductListQuerySchema, response: ProductSchema, list: true },
  create: { route: 'products.create', body: ProductCreateSchema, response: ProductSchema, status: 201 },
  get: { route: 'products.get', params: productPath, response: ProductSchema, errors: [404] },
  update: { route: 'products.update', params: productPath, body: ProductUpdateSchema, response: ProductSchema, errors: [404, 409] },
  delete: { route: 'products.delete', params: productPath, response: ProductDeletedSchema, errors: [404, 409] },
  calculate: { route: 'products.calculate', params: productPath, body: CalculateBodySchema, response: PriceQuoteSchema, errors: [404] },
});

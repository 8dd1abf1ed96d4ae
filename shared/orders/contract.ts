/**
 * The order operations, `GET /v1/customers/{id}/orders` included (it shows orders). Handlers
 * import this module as a namespace (`import * as orderOperations`) and the schemas are marked
 * pure, so each bundle keeps — and builds at cold start — only its own operation's.
 */
import type * as z from 'zod';
import { idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import { customersOrders, ordersCreate, ordersGet, ordersList, ordersReplaceLineFiles, ordersUpdate } from '#shared/routes';
import {
  CustomerOrderCreateSchema,
  CustomerOrdersQuerySchema,
  OrderCreateSchema,
  OrderLineFilesSchema,
  OrderLinePathSchema,
  OrderListQuerySchema,
  OrderSchema,
  OrderUpdateSchema,
} from './schema';

const orderPath = /* @__PURE__ */ idPath('Order id');
const customerPath = /* @__PURE__ */ idPath('Customer id');

export const list = { route: ordersList, query: OrderListQuerySchema, list: true } satisfies Operation;
export const create = {
  route: ordersCreate,
  body: OrderCreateSchema,
  customerBody: CustomerOrderCreateSchema,
  status: 201,
  etag: true,
  errors: [409],
} satisfies Operation;
export const get = { route: ordersGet, params: orderPath, etag: true, errors: [404] } satisfies Operation;
export const update = {
  route: ordersUpdate,
  params: orderPath,
  body: OrderUpdateSchema,
  etag: true,
  ifMatch: true,
  errors: [404, 409, 412],
} satisfies Operation;
export const replaceLineFiles = {
  route: ordersReplaceLineFiles,
  params: OrderLinePathSchema,
  body: OrderLineFilesSchema,
  etag: true,
  ifMatch: true,
  errors: [404, 409, 412],
} satisfies Operation;
export const customerOrders = {
  route: customersOrders,
  params: customerPath,
  query: CustomerOrdersQuerySchema,
  list: true,
  errors: [404],
} satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  list: OrderSchema,
  create: OrderSchema,
  get: OrderSchema,
  update: OrderSchema,
  replaceLineFiles: OrderSchema,
  customerOrders: OrderSchema,
} satisfies Record<string, z.ZodType>;

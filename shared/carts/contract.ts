/**
 * The cart operations. Handlers import this module as a namespace (`import * as cartOperations`)
 * and the schemas are marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
 */
import * as z from 'zod';
import { OrderSchema } from '#shared/orders/schema';
import {
  cartAddItem,
  cartCheckout,
  cartGet,
  cartMerge,
  cartRemoveItem,
  cartsAddItem,
  cartsCheckout,
  cartsCreate,
  cartsDelete,
  cartsGet,
  cartsRemoveItem,
  cartsUpdateItem,
  cartUpdateItem,
} from '#shared/routes';
import { pathId } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import {
  CartCheckoutSchema,
  CartCreateSchema,
  CartDeletedSchema,
  cartId,
  CartLineInputSchema,
  CartLineUpdateSchema,
  CartMergeSchema,
  CartSchema,
  CustomerCartCheckoutSchema,
} from './schema';

const cartIdParam = /* @__PURE__ */ (() => cartId.meta({ description: 'Session cart id (cart_…)', param: { name: 'id', in: 'path' } }))();
const itemIdParam = /* @__PURE__ */ (() =>
  pathId.meta({ description: 'Line id within the cart', param: { name: 'itemId', in: 'path' } }))();
const cartPath = /* @__PURE__ */ (() => z.object({ id: cartIdParam }))();
const cartItemPath = /* @__PURE__ */ (() => z.object({ id: cartIdParam, itemId: itemIdParam }))();
const itemPath = /* @__PURE__ */ (() => z.object({ itemId: itemIdParam }))();

// Session carts
export const create = { route: cartsCreate, body: CartCreateSchema, status: 201 } satisfies Operation;
export const get = { route: cartsGet, params: cartPath, errors: [404] } satisfies Operation;
export const remove = { route: cartsDelete, params: cartPath, errors: [404] } satisfies Operation;
export const addItem = {
  route: cartsAddItem,
  params: cartPath,
  body: CartLineInputSchema,
  status: 201,
  errors: [404, 409],
} satisfies Operation;
export const updateItem = {
  route: cartsUpdateItem,
  params: cartItemPath,
  body: CartLineUpdateSchema,
  errors: [404, 409],
} satisfies Operation;
export const removeItem = { route: cartsRemoveItem, params: cartItemPath, errors: [404, 409] } satisfies Operation;
export const checkout = {
  route: cartsCheckout,
  params: cartPath,
  body: CartCheckoutSchema,
  status: 201,
  repeated: 'The cart was checked out before (a retry): the order it made, unchanged.',
  etag: true,
  errors: [404, 409],
} satisfies Operation;

// The signed-in customer's cart
export const customerGet = { route: cartGet } satisfies Operation;
export const customerAddItem = { route: cartAddItem, body: CartLineInputSchema, status: 201, errors: [409] } satisfies Operation;
export const customerUpdateItem = {
  route: cartUpdateItem,
  params: itemPath,
  body: CartLineUpdateSchema,
  errors: [404, 409],
} satisfies Operation;
export const customerRemoveItem = { route: cartRemoveItem, params: itemPath, errors: [404, 409] } satisfies Operation;
export const customerMerge = { route: cartMerge, body: CartMergeSchema, errors: [404, 409] } satisfies Operation;
export const customerCheckout = {
  route: cartCheckout,
  body: CustomerCartCheckoutSchema,
  status: 201,
  repeated: 'The cart was checked out before (a retry): the order it made, unchanged.',
  etag: true,
  errors: [409],
} satisfies Operation;

/**
 * What each operation answers (its `data`), for the OpenAPI document: kept apart from the
 * operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  create: CartSchema,
  get: CartSchema,
  remove: CartDeletedSchema,
  addItem: CartSchema,
  updateItem: CartSchema,
  removeItem: CartSchema,
  checkout: OrderSchema,
  customerGet: CartSchema,
  customerAddItem: CartSchema,
  customerUpdateItem: CartSchema,
  customerRemoveItem: CartSchema,
  customerMerge: CartSchema,
  customerCheckout: OrderSchema,
} satisfies Record<string, z.ZodType>;

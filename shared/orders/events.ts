/** The events orders emit, each carrying the order as the API shows it (`data.order`). */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { OrderSchema } from './schema';
import type { OrderChangeEvent } from './status';

const payload = /* @__PURE__ */ z.object({ order: OrderSchema });

const orderCreatedDeclaration = /* @__PURE__ */ defineEvent('order.created', payload);
/** Every accepted change, a status change included. */
const orderUpdatedDeclaration = /* @__PURE__ */ defineEvent('order.updated', payload);
const orderShippedDeclaration = /* @__PURE__ */ defineEvent('order.shipped', payload);
const orderCompletedDeclaration = /* @__PURE__ */ defineEvent('order.completed', payload);
const orderCancelledDeclaration = /* @__PURE__ */ defineEvent('order.cancelled', payload);

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [
  orderCreatedDeclaration,
  orderUpdatedDeclaration,
  orderShippedDeclaration,
  orderCompletedDeclaration,
  orderCancelledDeclaration,
];

/** What services write with (`eventPut`): the kinds, typed by their declarations, without their schemas. */
export const orderCreated = /* @__PURE__ */ writerOf<typeof orderCreatedDeclaration>('order.created');
export const orderUpdated = /* @__PURE__ */ writerOf<typeof orderUpdatedDeclaration>('order.updated');
export const orderShipped = /* @__PURE__ */ writerOf<typeof orderShippedDeclaration>('order.shipped');
export const orderCompleted = /* @__PURE__ */ writerOf<typeof orderCompletedDeclaration>('order.completed');
export const orderCancelled = /* @__PURE__ */ writerOf<typeof orderCancelledDeclaration>('order.cancelled');

/** The definition of each kind a change writes (status.ts decides which). */
export const changeEvents = {
  'order.updated': orderUpdated,
  'order.shipped': orderShipped,
  'order.completed': orderCompleted,
  'order.cancelled': orderCancelled,
} satisfies Record<OrderChangeEvent, unknown>;

/** The events orders emit, each carrying the order as the API shows it (`data.order`). */
import * as z from 'zod';
import { defineEvent } from '#shared/events/catalogue';
import { OrderSchema } from './schema';
import type { OrderChangeEvent } from './status';

const payload = /* @__PURE__ */ z.object({ order: OrderSchema });

export const orderCreated = /* @__PURE__ */ defineEvent('order.created', payload);
/** Every accepted change, a status change included. */
export const orderUpdated = /* @__PURE__ */ defineEvent('order.updated', payload);
export const orderShipped = /* @__PURE__ */ defineEvent('order.shipped', payload);
export const orderCompleted = /* @__PURE__ */ defineEvent('order.completed', payload);
export const orderCancelled = /* @__PURE__ */ defineEvent('order.cancelled', payload);

/** The definition of each kind a change writes (status.ts decides which). */
export const changeEvents = {
  'order.updated': orderUpdated,
  'order.shipped': orderShipped,
  'order.completed': orderCompleted,
  'order.cancelled': orderCancelled,
} satisfies Record<OrderChangeEvent, unknown>;

/**
 * The order status machine — the one copy of the transition table (docs/orders.md shows the same
 * table and a unit test checks every pair). Pure: the repository enforces a transition in the
 * database with a condition on the status it read, so of concurrent transitions exactly one wins.
 */
import { DomainError } from '#shared/errors';

export const ORDER_STATUSES = ['pending', 'confirmed', 'in_production', 'ready', 'shipped', 'completed', 'cancelled'] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** from → the states it may move to. Anything not listed (the same state included) is refused. */
export const TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['in_production', 'cancelled'],
  in_production: ['ready', 'cancelled'],
  ready: ['shipped', 'completed'], // completed: picked up at the counter
  shipped: ['completed'],
  completed: [],
  cancelled: [],
};

export const nextStatuses = (from: OrderStatus): readonly OrderStatus[] => TRANSITIONS[from];

export const canTransition = (from: OrderStatus, to: OrderStatus): boolean => TRANSITIONS[from].includes(to);

/** Completed and cancelled orders are closed: they no longer count as the customer's open orders. */
export const isClosed = (status: OrderStatus): boolean => status === 'completed' || status === 'cancelled';

/** 409 `invalid_transition` naming the allowed next states (in the message and in `details`). */
export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (canTransition(from, to)) return;
  const allowed = nextStatuses(from);
  const reason = from === to ? `The order is already ${from}` : `An order cannot move from ${from} to ${to}`;
  const next = allowed.length ? `allowed next states: ${allowed.join(', ')}` : `${from} is final; no further state is allowed`;
  throw new DomainError('invalid_transition', `${reason}; ${next}`, [{ field: 'status', message: next }]);
}

/** The event kinds a change of an order can write. */
export type OrderChangeEvent = 'order.updated' | 'order.shipped' | 'order.completed' | 'order.cancelled';

const entered: Partial<Record<OrderStatus, OrderChangeEvent>> = {
  shipped: 'order.shipped',
  completed: 'order.completed',
  cancelled: 'order.cancelled',
};

/**
 * Event kinds an accepted change writes (in its own transaction): every change is an
 * `order.updated`; entering shipped, completed or cancelled adds its own kind.
 */
export function eventsForChange(from: OrderStatus, to: OrderStatus): OrderChangeEvent[] {
  const specific = from === to ? undefined : entered[to];
  return specific ? ['order.updated', specific] : ['order.updated'];
}

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

/** Who moves an order: by hand (`PUT /v1/orders/{id}`), or the system — production (its jobs), shipments (their milestones). */
export type Mover = 'hand' | 'production' | 'shipments';

/**
 * The moves the system makes, each along the table above and only these: production starts a
 * confirmed order and finishes one in production; shipments ship a ready order and complete a
 * shipped one. By hand, any move of the table.
 */
export const SYSTEM_MOVES: Readonly<Record<Exclude<Mover, 'hand'>, readonly (readonly [OrderStatus, OrderStatus])[]>> = {
  production: [
    ['confirmed', 'in_production'],
    ['in_production', 'ready'],
  ],
  shipments: [
    ['ready', 'shipped'],
    ['shipped', 'completed'],
  ],
};

/** 409 `invalid_transition` unless `by` may move an order from `from` to `to` (the table, and for the system its own moves). */
export function assertMove(by: Mover, from: OrderStatus, to: OrderStatus): void {
  assertTransition(from, to);
  if (by !== 'hand' && !SYSTEM_MOVES[by].some(([a, b]) => a === from && b === to)) {
    throw new DomainError('invalid_transition', `${by} does not move an order from ${from} to ${to}`, [
      { field: 'status', message: `not a move of ${by}` },
    ]);
  }
}

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

/** The event kinds of the states entered, in order: shipped, completed and cancelled have their own. */
export const enteredEvents = (states: readonly OrderStatus[]): OrderChangeEvent[] =>
  states.flatMap((state) => (entered[state] ? [entered[state]] : []));

/**
 * Event kinds an accepted change writes (in its own transaction): every change is an
 * `order.updated`; entering shipped, completed or cancelled adds its own kind.
 */
export function eventsForChange(from: OrderStatus, to: OrderStatus): OrderChangeEvent[] {
  return from === to ? ['order.updated'] : ['order.updated', ...enteredEvents([to])];
}

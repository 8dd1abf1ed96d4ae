import { describe, expect, it } from 'vitest';
import { DomainError } from '#shared/errors';
import {
  ORDER_STATUSES,
  assertTransition,
  canTransition,
  eventsForChange,
  isClosed,
  nextStatuses,
  type OrderStatus,
} from '#shared/orders/status';

/** The table of docs/orders.md, written out independently of the module. */
const allowed = new Set([
  'pending→confirmed',
  'pending→cancelled',
  'confirmed→in_production',
  'confirmed→cancelled',
  'in_production→ready',
  'in_production→cancelled',
  'ready→shipped',
  'ready→completed',
  'shipped→completed',
]);

const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to): [OrderStatus, OrderStatus] => [from, to]));

describe('the order status machine', () => {
  it('has seven states', () => {
    expect(ORDER_STATUSES).toEqual(['pending', 'confirmed', 'in_production', 'ready', 'shipped', 'completed', 'cancelled']);
  });

  it.each(pairs)('%s → %s is allowed exactly when the table says so', (from, to) => {
    const expected = allowed.has(`${from}→${to}`);
    expect(canTransition(from, to)).toBe(expected);
    if (expected) expect(() => assertTransition(from, to)).not.toThrow();
    else {
      let error: unknown;
      try {
        assertTransition(from, to);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DomainError);
      const apiError = error as DomainError;
      expect(apiError.code).toBe('invalid_transition');
      const next = nextStatuses(from);
      expect(apiError.details).toEqual([
        {
          field: 'status',
          message: next.length ? `allowed next states: ${next.join(', ')}` : `${from} is final; no further state is allowed`,
        },
      ]);
      expect(apiError.message).toContain(from === to ? `already ${from}` : `from ${from} to ${to}`);
    }
  });

  it('lists the allowed next states of each state in the order of the table', () => {
    expect(Object.fromEntries(ORDER_STATUSES.map((status) => [status, nextStatuses(status)]))).toEqual({
      pending: ['confirmed', 'cancelled'],
      confirmed: ['in_production', 'cancelled'],
      in_production: ['ready', 'cancelled'],
      ready: ['shipped', 'completed'],
      shipped: ['completed'],
      completed: [],
      cancelled: [],
    });
  });

  it('treats completed and cancelled as closed (they no longer block customer deletion)', () => {
    expect(ORDER_STATUSES.filter(isClosed)).toEqual(['completed', 'cancelled']);
  });

  it('writes order.updated for every change and the specific kind on entering shipped, completed, cancelled', () => {
    expect(eventsForChange('pending', 'pending')).toEqual(['order.updated']);
    expect(eventsForChange('pending', 'confirmed')).toEqual(['order.updated']);
    expect(eventsForChange('confirmed', 'in_production')).toEqual(['order.updated']);
    expect(eventsForChange('in_production', 'ready')).toEqual(['order.updated']);
    expect(eventsForChange('ready', 'shipped')).toEqual(['order.updated', 'order.shipped']);
    expect(eventsForChange('ready', 'completed')).toEqual(['order.updated', 'order.completed']);
    expect(eventsForChange('shipped', 'completed')).toEqual(['order.updated', 'order.completed']);
    for (const from of ['pending', 'confirmed', 'in_production'] as const)
      expect(eventsForChange(from, 'cancelled')).toEqual(['order.updated', 'order.cancelled']);
  });
});

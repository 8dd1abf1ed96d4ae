import { describe, expect, it } from 'vitest';
import { DomainError } from '#shared/errors';
import {
  ORDER_STATUSES,
  assertTransition,
  canTransition,
  eventsForChange,
  isClosed,
  nextStatuses,
  assertMove,
  SYSTEM_MOVES,
  type OrderStatus,
} from '#shared/orders/status';
import { orderChangeParts } from '#shared/orders/transitions';
import { orderRecord } from '#test/support/records';

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

describe('who moves an order', () => {
  it('lets a hand make any move of the table, and the system only its own moves along it', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        if (!canTransition(from, to)) {
          expect(() => assertMove('hand', from, to), `hand ${from}→${to}`).toThrow(expect.objectContaining({ code: 'invalid_transition' }));
          continue;
        }
        expect(() => assertMove('hand', from, to)).not.toThrow();
        for (const by of ['production', 'shipments'] as const) {
          const own = SYSTEM_MOVES[by].some(([a, b]) => a === from && b === to);
          if (own) expect(() => assertMove(by, from, to)).not.toThrow();
          else
            expect(() => assertMove(by, from, to), `${by} ${from}→${to}`).toThrow(expect.objectContaining({ code: 'invalid_transition' }));
        }
      }
    }
    // Every system move is a move of the table.
    for (const [from, to] of [...SYSTEM_MOVES.production, ...SYSTEM_MOVES.shipments]) expect(canTransition(from, to)).toBe(true);
  });
});

describe("an order's change parts (the one way an order is written)", () => {
  const tenant = { accountId: 'acct_1', mode: 'test' as const };
  const order = (status: OrderStatus) => orderRecord({ status });
  const kindsOf = (parts: ReturnType<typeof orderChangeParts>) =>
    parts.flatMap((part) => {
      const item = 'item' in part ? part.item : part;
      const put = item.Put?.Item;
      return put?.entity === 'EVENT' ? [String(put.kind)] : [];
    });

  it('writes the state entered on the way: shipped and completed at once write order.shipped then order.completed', () => {
    const before = order('ready');
    const parts = orderChangeParts(tenant, before, { ...before, status: 'completed', version: 2 }, { by: 'shipments', via: ['shipped'] });
    expect(kindsOf(parts)).toEqual(['order.updated', 'order.shipped', 'order.completed']);
  });

  it("refuses a system move that is not the system's, and a path off the table", () => {
    const confirmed = order('confirmed');
    expect(() => orderChangeParts(tenant, confirmed, { ...confirmed, status: 'cancelled' }, { by: 'production' })).toThrow(
      expect.objectContaining({ code: 'invalid_transition' }),
    );
    const ready = order('ready');
    expect(() => orderChangeParts(tenant, ready, { ...ready, status: 'completed' }, { by: 'shipments', via: ['cancelled'] })).toThrow(
      expect.objectContaining({ code: 'invalid_transition' }),
    );
  });

  it('gives back the held stock on a cancel, and writes only order.updated when the status stays', () => {
    const pending = { ...order('pending'), reserved: [{ product_id: 3, quantity: 10 }] };
    const cancelled = orderChangeParts(tenant, pending, { ...pending, status: 'cancelled', reserved: [] }, { by: 'hand' });
    expect(kindsOf(cancelled)).toEqual(['order.updated', 'order.cancelled']);
    expect(JSON.stringify(cancelled)).toContain('PRODUCT#3');
    expect(kindsOf(orderChangeParts(tenant, pending, { ...pending, notes: 'x' }, { by: 'hand' }))).toEqual(['order.updated']);
  });
});

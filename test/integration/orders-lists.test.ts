import { beforeAll, describe, expect, inject, it } from 'vitest';
import { OrderSchema } from '#shared/orders/schema';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { freshShop, type Shop } from '#test/support/webhooks';

const { other } = inject('fixtures');

interface Listed {
  id: number;
  status: string;
  created_at: string;
  customer: { id: number };
}

/** Lists over a shop of their own, so that totals are exact. */
describe('order lists', () => {
  let own: Shop;
  let alice: { id: number; email: string };
  let bob: { id: number };
  /** Oldest first, as created. */
  const orders: Listed[] = [];
  const list = async (query: string, path = '/v1/orders') => {
    const response = await call('GET', `${path}${query ? `?${query}` : ''}`, { key: own.secretTest });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { data: Listed[]; pagination: { page: number; per_page: number; total: number; total_pages: number } };
  };
  const ids = (items: Listed[]) => items.map((item) => item.id);
  const newestFirst = (items: Listed[]) => ids([...items].reverse());

  beforeAll(async () => {
    own = await freshShop('Lists Shop');
    alice = await newCustomer(own.secretTest, { name: 'Alice' });
    bob = await newCustomer(own.secretTest, { name: 'Bob' });
    const product = await newProduct(own.secretTest);
    for (const [buyer, status] of [
      [alice, 'pending'],
      [bob, 'confirmed'],
      [alice, 'confirmed'],
      [alice, 'cancelled'],
      [bob, 'pending'],
      [alice, 'pending'],
      [bob, 'confirmed'],
    ] as const) {
      const order = await newOrder(own.secretTest, { customer_id: buyer.id, items: [{ product_id: product.id, quantity: 1 }] });
      const final = status === 'pending' ? order : (await putOrder(own.secretTest, order.id, { status })).body.data;
      orders.push(final);
    }
  });

  it('lists all orders newest first with a total from the counter', async () => {
    const all = await list('');
    expect(all.data.map((item) => OrderSchema.strict().parse(item).id)).toEqual(newestFirst(orders));
    expect(all.pagination).toEqual({
      page: 1,
      per_page: 25,
      total: 7,
      total_pages: 1,
      total_capped: false,
      has_more: false,
      next_cursor: null,
    });
    const second = await list('page=2&per_page=3');
    expect(ids(second.data)).toEqual(newestFirst(orders).slice(3, 6));
    expect(second.pagination).toEqual({
      page: 2,
      per_page: 3,
      total: 7,
      total_pages: 3,
      total_capped: false,
      has_more: true,
      next_cursor: String(newestFirst(orders)[5]),
    });
    expect((await list('page=4&per_page=3')).data).toEqual([]);
  });

  it('filters by status, by customer, and by both', async () => {
    const cases: [string, (order: Listed) => boolean][] = [
      ['status=confirmed', (order) => order.status === 'confirmed'],
      ['status=completed', () => false],
      [`customer_id=${alice.id}`, (order) => order.customer.id === alice.id],
      [`customer_id=${bob.id}&status=pending`, (order) => order.customer.id === bob.id && order.status === 'pending'],
      ['customer_id=999999', () => false],
    ];
    for (const [query, keep] of cases) {
      const result = await list(query);
      expect(ids(result.data), query).toEqual(newestFirst(orders.filter(keep)));
      expect(result.pagination.total, query).toBe(orders.filter(keep).length);
    }
  });

  it('filters by creation time, alone and with the other filters', async () => {
    const from = orders[1]!.created_at;
    const to = orders[5]!.created_at;
    const inRange = (order: Listed) => order.created_at >= from && order.created_at <= to;
    const cases: [string, (order: Listed) => boolean][] = [
      [`created_from=${from}&created_to=${to}`, inRange],
      [`created_from=${from}`, (order) => order.created_at >= from],
      [`created_to=${to}`, (order) => order.created_at <= to],
      [`created_from=${from}&created_to=${to}&status=pending`, (order) => inRange(order) && order.status === 'pending'],
      [
        `created_from=${from}&customer_id=${alice.id}&status=confirmed`,
        (order) => order.created_at >= from && order.customer.id === alice.id && order.status === 'confirmed',
      ],
      [`created_from=${from.slice(0, 10)}`, () => true],
      ['created_to=2000-01-01', () => false],
    ];
    for (const [query, keep] of cases) {
      const result = await list(query.replaceAll('+', '%2B'));
      expect(ids(result.data), query).toEqual(newestFirst(orders.filter(keep)));
      expect(result.pagination.total, query).toBe(orders.filter(keep).length);
    }
  });

  it('pages with starting_after (cursor) through the same list as page numbers', async () => {
    const seen: number[] = [];
    let cursor: number | undefined;
    for (;;) {
      const result = await list(`per_page=2${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(result.pagination.total).toBe(7);
      if (result.data.length === 0) break;
      seen.push(...ids(result.data));
      cursor = result.data.at(-1)!.id;
    }
    expect(seen).toEqual(newestFirst(orders));
    const pendingAfter = await list(`status=pending&starting_after=${orders[5]!.id}`);
    expect(ids(pendingAfter.data)).toEqual(newestFirst(orders.slice(0, 5).filter((order) => order.status === 'pending')));
  });

  it("lists a customer's orders with a total, filters them, and answers 404 for unknown customers", async () => {
    const result = await list('per_page=2', `/v1/customers/${bob.id}/orders`);
    expect(ids(result.data)).toEqual(newestFirst(orders.filter((order) => order.customer.id === bob.id)).slice(0, 2));
    expect(result.pagination).toEqual({
      page: 1,
      per_page: 2,
      total: 3,
      total_pages: 2,
      total_capped: false,
      has_more: true,
      next_cursor: String(ids(result.data)[1]),
    });
    const confirmed = await list('status=confirmed', `/v1/customers/${alice.id}/orders`);
    expect(ids(confirmed.data)).toEqual([orders[2]!.id]);
    expect(confirmed.pagination.total).toBe(1);
    expect((await call('GET', '/v1/customers/999999/orders', { key: own.secretTest })).status).toBe(404);
    // An unknown customer is a 404 also with a cursor the tenant does not have (not a 422, whichever read ends first).
    for (let round = 0; round < 5; round++)
      expect((await call('GET', '/v1/customers/999999/orders?starting_after=999999', { key: own.secretTest })).status).toBe(404);
    // Another account sees its own customer with that id (if any), never this one's orders.
    const foreign = await call('GET', `/v1/customers/${alice.id}/orders`, { key: other.secretTest });
    expect([200, 404]).toContain(foreign.status);
    expect((foreign.body.data ?? []).some((order: { customer: { email: string } }) => order.customer.email === alice.email)).toBe(false);
  });

  it.each([
    ['status=lost', 'status'],
    ['customer_id=abc', 'customer_id'],
    ['created_from=yesterday', 'created_from'],
    ['created_from=2026-01-01T10:00', 'created_from'],
    ['created_from=2026-02-01&created_to=2026-01-01', 'created_to'],
    ['starting_after=999999', 'starting_after'],
    ['starting_after=1&page=2', 'page'],
    ['sort=asc', 'sort'],
  ])('refuses %s with 422 naming %s', async (query, field) => {
    const response = await call('GET', `/v1/orders?${query}`, { key: own.secretTest });
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.error.details![0]!.field).toBe(field);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct, putOrder, stockOf } from '#test/support/orders';
import { produceOrder } from '#test/support/production';
import { storedCustomer, storedTotal } from '#test/support/store';
import { eventsOf, freshShop, type Shop } from '#test/support/shop';

/** The status machine over HTTP, with exactly the event items each accepted change leaves. */
describe('order status', () => {
  let own: Shop;
  let customer: { id: number };
  let product: { id: number };
  beforeAll(async () => {
    own = await freshShop('Status Shop');
    customer = await newCustomer(own.secretTest);
    product = await newProduct(own.secretTest);
  });

  const create = () => newOrder(own.secretTest, { customer_id: customer.id, items: [{ product_id: product.id, quantity: 3 }] });

  /** Runs `change` and returns the kinds (sorted) of the events it left, and their data.order. */
  async function changeOf(change: () => Promise<unknown>) {
    const added = await eventsOf(own.tenant, change);
    return {
      kinds: added.map((event) => String(event.kind)).sort(),
      orders: added.map((event) => ('order' in event.data ? event.data.order : undefined)),
    };
  }

  it('walks pending → confirmed → in_production → ready → shipped → completed, one set of events per step', async () => {
    const created = await changeOf(async () => create());
    expect(created.kinds).toEqual(['order.created']);
    const order = created.orders[0]!;
    expect(order.status).toBe('pending');
    let version = 1;
    const step = async (status: string, kinds: string[]) => {
      let response: Awaited<ReturnType<typeof putOrder>> | undefined;
      const events = await changeOf(async () => (response = await putOrder(own.secretTest, order.id, { status })));
      expect(response!.status, JSON.stringify(response!.body)).toBe(200);
      version += 1;
      expect(response!.body.data).toMatchObject({ status, version });
      expect(response!.headers.get('etag')).toBe(`W/"${version}"`);
      expect(events.kinds, status).toEqual(kinds);
      // Every event carries the full order as it is after the change.
      for (const data of events.orders.filter(Boolean)) expect(data).toEqual(response!.body.data);
    };
    await step('confirmed', ['order.updated', 'production.job.created']);
    await step('in_production', ['order.updated']);
    // Ready follows production: when the order's last job completes (docs/production.md).
    const produced = await changeOf(() => produceOrder(own.secretTest, order.id));
    expect(produced.kinds).toEqual(['order.updated', 'production.completed', 'production.job.completed', 'production.started']);
    version += 1; // ready (the start of production changes nothing the API shows of an order already in_production)
    expect((await call('GET', `/v1/orders/${order.id}`, { key: own.secretTest })).body.data).toMatchObject({ status: 'ready', version });
    await step('shipped', ['order.shipped', 'order.updated']);
    await step('completed', ['order.completed', 'order.updated']);
    const back = await changeOf(async () => {
      const refused = await putOrder(own.secretTest, order.id, { status: 'pending' });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({
        code: 'invalid_transition',
        details: [{ field: 'status', message: 'completed is final; no further state is allowed' }],
      });
    });
    expect(back.kinds).toEqual([]);
    expect((await storedCustomer(own.tenant, customer.id))!.order_count_completed).toBe(1);
  });

  it('completes a ready order on pickup and names the allowed states of an illegal move', async () => {
    const order = await create();
    const illegal = await putOrder(own.secretTest, order.id, { status: 'shipped' });
    expect(illegal.status).toBe(409);
    expect(illegal.body.error.code).toBe('invalid_transition');
    expect(illegal.body.error.message).toBe('An order cannot move from pending to shipped; allowed next states: confirmed, cancelled');
    for (const status of ['confirmed', 'in_production']) expect((await putOrder(own.secretTest, order.id, { status })).status).toBe(200);
    await produceOrder(own.secretTest, order.id);
    const pickup = await changeOf(async () => expect((await putOrder(own.secretTest, order.id, { status: 'completed' })).status).toBe(200));
    expect(pickup.kinds).toEqual(['order.completed', 'order.updated']);
  });

  it('lets exactly one of two concurrent confirmations win; the other gets 409 invalid_transition', async () => {
    const order = await create();
    const events = await changeOf(async () => {
      const responses = await Promise.all([
        putOrder(own.secretTest, order.id, { status: 'confirmed' }),
        putOrder(own.secretTest, order.id, { status: 'confirmed' }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      expect(responses.find((response) => response.status === 409)!.body.error.code).toBe('invalid_transition');
    });
    // One confirmation: one order.updated and the jobs of its lines, once.
    expect(events.kinds).toEqual(['order.updated', 'production.job.created']);
    expect((await call('GET', `/v1/orders/${order.id}`, { key: own.secretTest })).body.data).toMatchObject({
      status: 'confirmed',
      version: 2,
    });
  });

  it('cancels with the stock returned and the counters moved, and allows nothing after', async () => {
    const tracked = await newProduct(own.secretTest, { stock: { tracked: true, quantity: 8, low_threshold: 0 } });
    const order = await newOrder(own.secretTest, { customer_id: customer.id, items: [{ product_id: tracked.id, quantity: 5 }] });
    expect(await stockOf(own.secretTest, tracked.id)).toBe(3);
    await putOrder(own.secretTest, order.id, { status: 'confirmed' });
    await putOrder(own.secretTest, order.id, { status: 'in_production' });
    const before = {
      cancelled: await storedTotal(own.tenant, 'orders:cancelled'),
      open: (await storedCustomer(own.tenant, customer.id))!.open_orders,
    };
    const cancelled = await changeOf(async () =>
      expect((await putOrder(own.secretTest, order.id, { status: 'cancelled' })).status).toBe(200),
    );
    expect(cancelled.kinds).toEqual(['order.cancelled', 'order.updated']);
    expect(await stockOf(own.secretTest, tracked.id)).toBe(8);
    expect(await storedTotal(own.tenant, 'orders:cancelled')).toBe(before.cancelled + 1);
    expect((await storedCustomer(own.tenant, customer.id))!.open_orders).toBe(before.open - 1);
    for (const status of ['pending', 'confirmed', 'completed']) {
      const refused = await putOrder(own.secretTest, order.id, { status });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('invalid_transition');
    }
    expect(await stockOf(own.secretTest, tracked.id)).toBe(8);
  });

  it('refuses to delete a customer while an order is open, and allows it once all are closed', async () => {
    const buyer = await newCustomer(own.secretTest);
    const first = await newOrder(own.secretTest, { customer_id: buyer.id, items: [{ product_id: product.id, quantity: 1 }] });
    const second = await newOrder(own.secretTest, { customer_id: buyer.id, items: [{ product_id: product.id, quantity: 1 }] });
    const refused = await call('DELETE', `/v1/customers/${buyer.id}`, { key: own.secretTest });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('This customer has 2 open orders (not completed or cancelled); complete or cancel them first');
    await putOrder(own.secretTest, first.id, { status: 'cancelled' });
    for (const status of ['confirmed', 'in_production']) await putOrder(own.secretTest, second.id, { status });
    await produceOrder(own.secretTest, second.id);
    await putOrder(own.secretTest, second.id, { status: 'shipped' });
    expect((await call('DELETE', `/v1/customers/${buyer.id}`, { key: own.secretTest })).body.error.message).toMatch(/has 1 open order \(/);
    await putOrder(own.secretTest, second.id, { status: 'completed' });
    expect((await call('DELETE', `/v1/customers/${buyer.id}`, { key: own.secretTest })).status).toBe(200);
    // The orders stay, with the customer as it was when they were placed.
    expect((await call('GET', `/v1/orders/${second.id}`, { key: own.secretTest })).body.data.customer.id).toBe(buyer.id);
    expect((await call('GET', `/v1/customers/${buyer.id}/orders`, { key: own.secretTest })).status).toBe(404);
  });
});

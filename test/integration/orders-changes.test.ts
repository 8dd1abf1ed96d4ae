import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct, orderEventKinds, putOrder, stockOf } from '#test/support/orders';
import { freshShop, type Shop } from '#test/support/webhooks';

/** PUT /v1/orders/{id} beyond the status: fields, lines while pending, If-Match. */
describe('order changes', () => {
  let own: Shop;
  let customer: { id: number };
  let product: { id: number };
  beforeAll(async () => {
    own = await freshShop('Changes Shop');
    customer = await newCustomer(own.secretTest);
    product = await newProduct(own.secretTest, { base_price: 2 });
  });

  const create = (extra: Record<string, unknown> = {}) =>
    newOrder(own.secretTest, { customer_id: customer.id, items: [{ product_id: product.id, quantity: 10 }], ...extra });
  const read = async (id: number) => (await call('GET', `/v1/orders/${id}`, { key: own.secretTest })).body.data;

  it('changes notes, due date and addresses, clears with null, and writes order.updated', async () => {
    const order = await create({ notes: 'Rush', due_date: '2026-12-01' });
    const address = { name: 'Lager', line1: 'Hafenstraße 9', postal_code: '20457', city: 'Hamburg', country: 'DE' };
    const updated = await putOrder(own.secretTest, order.id, { notes: null, due_date: '2026-12-24', shipping_address: address });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      notes: null,
      due_date: '2026-12-24',
      shipping_address: { ...address, company: null, line2: null, region: null },
      version: 2,
      total: order.total,
    });
    expect(updated.body.data.updated_at >= order.updated_at).toBe(true);
    expect(await read(order.id)).toEqual(updated.body.data);
    expect(await orderEventKinds(own.tenant, order.id)).toEqual(['order.created', 'order.updated']);
    const cleared = await putOrder(own.secretTest, order.id, { shipping_address: null });
    expect(cleared.body.data.shipping_address).toBeNull();
  });

  it('honours If-Match: a stale version is 412 and changes nothing; the current version or ETag passes', async () => {
    const order = await create();
    const current = await putOrder(own.secretTest, order.id, { notes: 'A' }, { 'If-Match': 'W/"1"' });
    expect(current.status).toBe(200);
    expect(current.headers.get('etag')).toBe('W/"2"');
    for (const ifMatch of ['1', '"1"', 'W/"1"', 'W/"1", W/"3"']) {
      const refused = await putOrder(own.secretTest, order.id, { notes: 'B', status: 'confirmed' }, { 'If-Match': ifMatch });
      expect(refused.status, ifMatch).toBe(412);
      expect(refused.body.error.code).toBe('precondition_failed');
    }
    expect(await read(order.id)).toMatchObject({ notes: 'A', status: 'pending', version: 2 });
    expect(await orderEventKinds(own.tenant, order.id)).toEqual(['order.created', 'order.updated']);
    expect((await putOrder(own.secretTest, order.id, { notes: 'C' }, { 'If-Match': '2' })).status).toBe(200);
    expect((await putOrder(own.secretTest, order.id, { notes: 'D' }, { 'If-Match': '*' })).body.data).toMatchObject({
      notes: 'D',
      version: 4,
    });
  });

  it('lets one of two writers with the same If-Match win; the other gets 412', async () => {
    const order = await create();
    const responses = await Promise.all(['X', 'Y'].map((notes) => putOrder(own.secretTest, order.id, { notes }, { 'If-Match': 'W/"1"' })));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 412]);
    expect(await orderEventKinds(own.tenant, order.id)).toEqual(['order.created', 'order.updated']);
  });

  it('keeps both of two concurrent changes without If-Match (the loser re-reads and applies its change)', async () => {
    const order = await create();
    const [notes, due] = await Promise.all([
      putOrder(own.secretTest, order.id, { notes: 'Both' }),
      putOrder(own.secretTest, order.id, { due_date: '2027-01-15' }),
    ]);
    expect([notes.status, due.status]).toEqual([200, 200]);
    expect(await read(order.id)).toMatchObject({ notes: 'Both', due_date: '2027-01-15', version: 3 });
  });

  it('replaces the lines of a pending order: totals recomputed, only the stock difference moves', async () => {
    const tracked = await newProduct(own.secretTest, { base_price: 1.5, stock: { tracked: true, quantity: 20, low_threshold: 2 } });
    const second = await newProduct(own.secretTest, { base_price: 3, stock: { tracked: true, quantity: 5, low_threshold: 0 } });
    const order = await newOrder(own.secretTest, {
      customer_id: customer.id,
      items: [
        { product_id: tracked.id, quantity: 6 },
        { product_id: second.id, quantity: 5 },
      ],
    });
    expect([await stockOf(own.secretTest, tracked.id), await stockOf(own.secretTest, second.id)]).toEqual([14, 0]);

    const more = await putOrder(own.secretTest, order.id, {
      items: [
        { product_id: tracked.id, quantity: 10 },
        { product_id: product.id, quantity: 1, unit_price: 0.5 },
      ],
      shipping: 4.9,
    });
    expect(more.status, JSON.stringify(more.body)).toBe(200);
    // 10 × 1.50 + 1 × 0.50 = 15.50; + 4.90 shipping = 20.40; tax 19 % = 3.876 → 3.88.
    expect(more.body.data).toMatchObject({ subtotal: 15.5, shipping: 4.9, tax: 3.88, total: 24.28, version: 2 });
    expect(more.body.data.items.map((line) => [line.id, line.product_id])).toEqual([
      [1, tracked.id],
      [2, product.id],
    ]);
    expect([await stockOf(own.secretTest, tracked.id), await stockOf(own.secretTest, second.id)]).toEqual([10, 5]);

    const fewer = await putOrder(own.secretTest, order.id, { items: [{ product_id: tracked.id, quantity: 2 }] });
    expect(fewer.body.data.subtotal).toBe(3);
    expect(await stockOf(own.secretTest, tracked.id)).toBe(18);
    const tooMany = await putOrder(own.secretTest, order.id, { items: [{ product_id: tracked.id, quantity: 21 }] });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.details![0]!.message).toBe(`only 18 of product ${tracked.id} in stock, 19 more (2 already held) requested`);
    expect(await stockOf(own.secretTest, tracked.id)).toBe(18);

    // The product dropped from the order is deletable again; the one still referenced is archived.
    expect((await call('DELETE', `/v1/products/${second.id}`, { key: own.secretTest })).body.data).toEqual({
      id: second.id,
      deleted: true,
    });
    expect((await call('DELETE', `/v1/products/${tracked.id}`, { key: own.secretTest })).body.data).toMatchObject({
      deleted: false,
      archived: true,
    });

    await putOrder(own.secretTest, order.id, { status: 'cancelled' });
    expect(await stockOf(own.secretTest, tracked.id)).toBe(20);
    expect(await orderEventKinds(own.tenant, order.id)).toEqual([
      'order.cancelled',
      'order.created',
      'order.updated',
      'order.updated',
      'order.updated',
    ]);
  });

  it('refuses line and shipping changes once the order is confirmed, with 409', async () => {
    const order = await create();
    await putOrder(own.secretTest, order.id, { status: 'confirmed' });
    const refused = await putOrder(own.secretTest, order.id, { items: [{ product_id: product.id, quantity: 1 }], shipping: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect(refused.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual(['items', 'shipping']);
    expect((await putOrder(own.secretTest, order.id, { notes: 'still fine' })).status).toBe(200);
  });

  it('refuses an address id of another customer with 422', async () => {
    const stranger = await newCustomer(own.secretTest);
    const address = await call('POST', `/v1/customers/${stranger.id}/addresses`, {
      key: own.secretTest,
      body: { type: 'shipping', name: 'S', line1: 'L', postal_code: '1', city: 'C', country: 'FR' },
    });
    const order = await create();
    const refused = await putOrder(own.secretTest, order.id, { shipping_address_id: address.body.data.id });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details![0]!.field).toBe('shipping_address_id');
  });
});

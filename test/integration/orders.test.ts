import { pngOf, uploadForm } from '#test/support/files';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { OrderSchema } from '#shared/orders/schema';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct, orderEventKinds, stockOf } from '#test/support/orders';
import { businessCards } from '#test/support/products';
import { storedCustomer, storedEvents, storedTotal } from '#test/support/store';
import { freshShop, type Shop } from '#test/support/webhooks';

const { shop, other } = inject('fixtures');

describe('order creation', () => {
  let own: Shop;
  beforeAll(async () => {
    own = await freshShop('Orders Shop');
  });

  it("accepts the spec's body, numbers the order and computes the total with tax", async () => {
    const customer = await newCustomer(own.secretTest, { name: 'Anna Schmidt' });
    const flyer = await newProduct(own.secretTest, { name: 'Flyer A5' });
    const poster = await newProduct(own.secretTest, { name: 'Poster A1', setup_fee: 5 });
    const response = await call('POST', '/v1/orders', {
      key: own.secretTest,
      body: {
        customer_id: customer.id,
        items: [
          { product_id: flyer.id, quantity: 500, unit_price: 0.15 },
          { product_id: poster.id, quantity: 3, unit_price: 12.35 },
        ],
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.success).toBe(true);
    expect(typeof response.body.data.order_number).toBe('string');
    expect(response.body.data.order_number).toMatch(new RegExp(`^ORD-${new Date().getUTCFullYear()}-\\d{6}$`));
    expect(response.headers.get('etag')).toBe('W/"1"');

    const read = await call('GET', `/v1/orders/${response.body.data.id}`, { key: own.secretTest });
    expect(read.status).toBe(200);
    const order = OrderSchema.strict().parse(read.body.data);
    expect(order).toMatchObject({
      status: 'pending',
      customer: { id: customer.id, name: 'Anna Schmidt', email: customer.email },
      currency: 'EUR',
      tax_rate: 19,
      version: 1,
    });
    // By hand: 500 × 0.15 + 3 × 12.35 = 75 + 37.05 = 112.05; tax 19 % = 21.2895 → 21.29; total 133.34
    // (a manual price carries no setup fee).
    expect(order.items.map((line) => [line.id, line.unit_price, line.setup_fee, line.total, line.price_source])).toEqual([
      [1, 0.15, 0, 75, 'manual'],
      [2, 12.35, 0, 37.05, 'manual'],
    ]);
    expect([order.subtotal, order.tax, order.shipping, order.total]).toEqual([112.05, 21.29, 0, 133.34]);
    expect(read.body.data).toEqual(response.body.data);
    expect(read.headers.get('etag')).toBe('W/"1"');
  });

  it('prices lines without unit_price with the product calculation and the account tax rate', async () => {
    const { swiss } = inject('fixtures');
    const customer = await newCustomer(swiss.secretTest);
    const cards = await newProduct(swiss.secretTest, businessCards());
    // The line's artwork: a ready file of the tenant's.
    const artwork = (await uploadForm(swiss.secretTest, { bytes: pngOf(2, 2), name: 'cards.png', type: 'image/png' })).body.data;
    const order = await newOrder(swiss.secretTest, {
      customer_id: customer.id,
      shipping: 10,
      items: [{ product_id: cards.id, quantity: 1000, options: { paper: 'linen', finish: 'softtouch' }, file_ids: [artwork.id] }],
    });
    // docs/pricing.md: unit 0.13, 130.00 + setup 9.90 = 139.90; + shipping 10 = 149.90; tax 7.7 % = 11.5423 → 11.54.
    expect(order.items[0]).toMatchObject({
      description: 'Business cards',
      unit_price: 0.13,
      setup_fee: 9.9,
      total: 139.9,
      price_source: 'product',
      options: { paper: 'linen', finish: 'softtouch' },
      file_ids: [artwork.id],
      files: [expect.objectContaining({ id: artwork.id, filename: 'cards.png', content_type: 'image/png' })],
    });
    expect([order.subtotal, order.shipping, order.tax, order.total, order.currency, order.tax_rate]).toEqual([
      139.9,
      10,
      11.54,
      161.44,
      'CHF',
      7.7,
    ]);
  });

  it("copies addresses from the customer's defaults, by id, or inline", async () => {
    const customer = await newCustomer(own.secretTest);
    const address = { name: 'Anna Schmidt', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'de' };
    const shipping = (
      await call('POST', `/v1/customers/${customer.id}/addresses`, { key: own.secretTest, body: { ...address, type: 'shipping' } })
    ).body.data;
    const billing = (
      await call('POST', `/v1/customers/${customer.id}/addresses`, {
        key: own.secretTest,
        body: { ...address, type: 'billing', line1: 'Rechnungsweg 2' },
      })
    ).body.data;
    const product = await newProduct(own.secretTest);
    const copy = {
      name: 'Anna Schmidt',
      company: null,
      line1: 'Hauptstraße 1',
      line2: null,
      postal_code: '10115',
      city: 'Berlin',
      region: null,
      country: 'DE',
    };

    const byDefault = await newOrder(own.secretTest, { customer_id: customer.id, items: [{ product_id: product.id, quantity: 1 }] });
    expect(byDefault.shipping_address).toEqual(copy);
    expect(byDefault.billing_address).toEqual({ ...copy, line1: 'Rechnungsweg 2' });

    const chosen = await newOrder(own.secretTest, {
      customer_id: customer.id,
      items: [{ product_id: product.id, quantity: 1 }],
      billing_address_id: shipping.id,
      shipping_address: { ...address, name: 'Warehouse', country: 'AT' },
    });
    expect(chosen.billing_address).toEqual(copy);
    expect(chosen.shipping_address).toEqual({ ...copy, name: 'Warehouse', country: 'AT' });

    const foreignAddress = await call('POST', '/v1/orders', {
      key: own.secretTest,
      body: { customer_id: customer.id, items: [{ product_id: product.id, quantity: 1 }], shipping_address_id: billing.id + 1000 },
    });
    expect(foreignAddress.status).toBe(422);
    expect(foreignAddress.body.error.details).toEqual([
      { field: 'shipping_address_id', message: `customer ${customer.id} has no address with id ${billing.id + 1000}` },
    ]);
  });

  it('reserves tracked stock with the order and refuses more than is left with 409, writing nothing', async () => {
    const customer = await newCustomer(own.secretTest);
    const tracked = await newProduct(own.secretTest, { stock: { tracked: true, quantity: 10, low_threshold: 4 } });
    const order = await newOrder(own.secretTest, {
      customer_id: customer.id,
      items: [
        { product_id: tracked.id, quantity: 4 },
        { product_id: tracked.id, quantity: 3 },
      ],
    });
    expect(await stockOf(own.secretTest, tracked.id)).toBe(3);
    const lowEvents = (await storedEvents(own.tenant)).filter(
      (event) => event.kind === 'stock.low' && event.data.product.id === tracked.id,
    );
    expect(lowEvents).toHaveLength(1);
    expect(await orderEventKinds(own.tenant, order.id)).toEqual(['order.created']);

    const ordersBefore = await storedTotal(own.tenant, 'orders');
    const refused = await call('POST', '/v1/orders', {
      key: own.secretTest,
      body: { customer_id: customer.id, items: [{ product_id: tracked.id, quantity: 4 }] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([
      { field: 'items.0.quantity', message: `only 3 of product ${tracked.id} in stock, 4 requested` },
    ]);
    expect(await stockOf(own.secretTest, tracked.id)).toBe(3);
    expect(await storedTotal(own.tenant, 'orders')).toBe(ordersBefore);
  });

  it('archives instead of deleting a product that an order references', async () => {
    const customer = await newCustomer(own.secretTest);
    const product = await newProduct(own.secretTest);
    await newOrder(own.secretTest, {
      customer_id: customer.id,
      items: [
        { product_id: product.id, quantity: 2 },
        { product_id: product.id, quantity: 1 },
      ],
    });
    const deleted = await call('DELETE', `/v1/products/${product.id}`, { key: own.secretTest });
    expect(deleted.body.data).toMatchObject({ deleted: false, archived: true });
  });

  it('gives 50 concurrent creates 50 distinct numbers and ids', async () => {
    const customer = await newCustomer(own.secretTest);
    const product = await newProduct(own.secretTest);
    const before = await storedTotal(own.tenant, 'orders');
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        call('POST', '/v1/orders', {
          key: own.secretTest,
          body: { customer_id: customer.id, items: [{ product_id: product.id, quantity: 1, unit_price: 2 }] },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201));
    expect(new Set(responses.map((response) => response.body.data.order_number)).size).toBe(50);
    expect(new Set(responses.map((response) => response.body.data.id)).size).toBe(50);
    expect(await storedTotal(own.tenant, 'orders')).toBe(before + 50);
    expect(await storedTotal(own.tenant, 'orders:pending')).toBeGreaterThanOrEqual(50);
    expect((await storedCustomer(own.tenant, customer.id))!).toMatchObject({ open_orders: 50, order_count: 50, order_count_pending: 50 });
  });
});

describe('order creation with Idempotency-Key', () => {
  it('answers a repeat with the first order and creates it once', async () => {
    const customer = await newCustomer(shop.secretTest);
    const product = await newProduct(shop.secretTest);
    const body = { customer_id: customer.id, items: [{ product_id: product.id, quantity: 2 }] };
    const headers = { 'Idempotency-Key': `order-${customer.id}` };
    const first = await call('POST', '/v1/orders', { body, headers });
    const repeat = await call('POST', '/v1/orders', { body, headers });
    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body.data).toEqual(first.body.data);
    const listed = await call('GET', `/v1/customers/${customer.id}/orders`);
    expect(listed.body.pagination.total).toBe(1);
  });
});

describe('order access', () => {
  it('keeps orders inside their account and mode', async () => {
    const customer = await newCustomer(shop.secretTest);
    const product = await newProduct(shop.secretTest);
    const order = await newOrder(shop.secretTest, { customer_id: customer.id, items: [{ product_id: product.id, quantity: 1 }] });
    for (const key of [other.secretTest, shop.secretLive]) {
      expect((await call('GET', `/v1/orders/${order.id}`, { key })).status).toBe(404);
      expect((await call('PUT', `/v1/orders/${order.id}`, { key, body: { notes: 'x' } })).status).toBe(404);
      const list = await call('GET', '/v1/orders', { key });
      expect(list.body.data.some((item: { order_number: string }) => item.order_number === order.order_number)).toBe(false);
    }
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['999999', 'abc', '0', '-1']) {
      const response = await call('GET', `/v1/orders/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it('needs the orders scopes and a secret key', async () => {
    // A key without the scopes is told which one it lacks; a publishable key is refused outright.
    for (const [key, code] of [
      [shop.customersReadOnly, 'insufficient_scope'],
      [shop.publishableTest, 'forbidden'],
    ] as const) {
      for (const [method, path] of [
        ['GET', '/v1/orders'],
        ['POST', '/v1/orders'],
        ['GET', '/v1/orders/1'],
        ['PUT', '/v1/orders/1'],
      ] as const) {
        const response = await call(method, path, { key, body: method === 'GET' ? undefined : { notes: 'x' } });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.body.error.code).toBe(code);
      }
    }
    expect((await call('GET', '/v1/orders', { key: null })).status).toBe(401);
  });
});

import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MAX_ORDER_LINES } from '#shared/orders/schema';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct, putOrder, stockOf } from '#test/support/orders';
import { businessCards } from '#test/support/products';
import { storedCustomer, storedEvents, storedTotal } from '#test/support/store';
import { freshShop, type Shop } from '#test/support/webhooks';

const { other } = inject('fixtures');

/** Bad orders change nothing: no order, no counter, no event, no stock, no sequence number. */
describe('refused orders', () => {
  let own: Shop;
  let customer: { id: number };
  let tracked: { id: number };
  let cards: { id: number };
  let archived: { id: number };
  beforeAll(async () => {
    own = await freshShop('Refusals Shop');
    customer = await newCustomer(own.secretTest);
    tracked = await newProduct(own.secretTest, { stock: { tracked: true, quantity: 20, low_threshold: 0 } });
    cards = await newProduct(own.secretTest, businessCards());
    archived = await newProduct(own.secretTest, { is_active: false });
  });

  // Built while the cases are collected, before the products exist: -3 stands for `tracked`, -2 for `cards`, -1 for `archived`.
  const line = (overrides: Record<string, unknown> = {}) => ({ product_id: -3, quantity: 2, ...overrides });
  const placeholders = () =>
    new Map([
      [-1, archived.id],
      [-2, cards.id],
      [-3, tracked.id],
    ]);

  async function expectRefused(body: Record<string, unknown>, details: { field: string; message?: string | RegExp }[]) {
    const response = await call('POST', '/v1/orders', { key: own.secretTest, body });
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    const fields = response.body.error.details!.map((detail: { field: string }) => detail.field);
    expect(fields).toEqual(details.map((detail) => detail.field));
    details.forEach((detail, i) => {
      if (detail.message) expect(response.body.error.details![i]!.message).toMatch(detail.message);
    });
  }

  it.each([
    ['a negative quantity', { items: [line({ quantity: -3 })] }, [{ field: 'items.0.quantity', message: 'must be at least 1' }]],
    ['a fractional quantity', { items: [line({ quantity: 1.5 })] }, [{ field: 'items.0.quantity', message: 'must be an integer' }]],
    [
      'an unknown product',
      { items: [line(), line({ product_id: 987_654 })] },
      [{ field: 'items.1.product_id', message: 'No product with id 987654' }],
    ],
    ['an archived product', { items: [line({ product_id: -1 })] }, [{ field: 'items.0.product_id' }]],
    [
      'a quantity below min_qty',
      { items: [line({ product_id: -2, quantity: 99, options: { paper: 'linen' } })] },
      [{ field: 'items.0.quantity', message: 'must be at least 100' }],
    ],
    [
      'an unknown option',
      { items: [line({ product_id: -2, quantity: 100, options: { paper: 'gold' } })] },
      [{ field: 'items.0.options.paper', message: /Unknown value "gold"/ }],
    ],
    [
      'a unit price with 3 decimals',
      { items: [line({ unit_price: 0.125 })] },
      [{ field: 'items.0.unit_price', message: 'must have at most 2 decimals' }],
    ],
    ['no lines', { items: [] }, [{ field: 'items', message: 'must have at least one line' }]],
    [
      'too many lines',
      { items: Array.from({ length: MAX_ORDER_LINES + 1 }, () => line()) },
      [{ field: 'items', message: `must have at most ${MAX_ORDER_LINES} lines` }],
    ],
    [
      'a total the client sends',
      { items: [line({ total: 1 })], total: 1 },
      [
        { field: 'items.0.total', message: 'Unknown field' },
        { field: 'total', message: 'Unknown field' },
      ],
    ],
    [
      'an address by id and inline',
      { items: [line()], billing_address_id: 1, billing_address: { name: 'A', line1: 'B', postal_code: '1', city: 'C', country: 'DE' } },
      [{ field: 'billing_address_id' }],
    ],
    [
      'a due date that does not exist',
      { items: [line()], due_date: '2026-02-30' },
      [{ field: 'due_date', message: 'must be a real calendar date' }],
    ],
  ])('refuses %s with 422 naming the field and writes nothing', async (_name, body, details) => {
    const items = (body.items as Record<string, unknown>[]).map((item) => ({
      ...item,
      product_id: placeholders().get(item.product_id as number) ?? item.product_id,
    }));
    const before = {
      orders: await storedTotal(own.tenant, 'orders'),
      events: (await storedEvents(own.tenant)).length,
      stock: await stockOf(own.secretTest, tracked.id),
    };
    await expectRefused({ customer_id: customer.id, ...body, items }, details);
    expect(await storedTotal(own.tenant, 'orders')).toBe(before.orders);
    expect((await storedEvents(own.tenant)).length).toBe(before.events);
    expect(await stockOf(own.secretTest, tracked.id)).toBe(before.stock);
    expect((await storedCustomer(own.tenant, customer.id))?.open_orders ?? 0).toBe(0);
  });

  it("refuses another tenant's customer and an unknown one as 422 customer_id", async () => {
    // A customer id that exists in the other account only (ids are per tenant, so skip a clash).
    let foreign = await newCustomer(other.secretTest);
    while (foreign.id === customer.id) foreign = await newCustomer(other.secretTest);
    for (const id of [foreign.id, 999_999]) {
      await expectRefused({ customer_id: id, items: [{ product_id: tracked.id, quantity: 2 }] }, [
        { field: 'customer_id', message: `No customer with id ${id}` },
      ]);
    }
    expect(await stockOf(own.secretTest, tracked.id)).toBe(20);
    expect(await storedTotal(own.tenant, 'orders')).toBe(0);
    expect((await call('GET', '/v1/orders', { key: own.secretTest })).body.data).toEqual([]);
    expect((await storedEvents(own.tenant)).filter((event) => String(event.kind).startsWith('order.'))).toEqual([]);
  });

  it('names every problem of a request at once', async () => {
    await expectRefused(
      {
        customer_id: 999_999,
        items: [
          { product_id: 987_654, quantity: 1 },
          { product_id: cards.id, quantity: 5 },
        ],
      },
      [
        { field: 'customer_id' },
        { field: 'items.0.product_id' },
        { field: 'items.1.quantity' },
        { field: 'items.1.options.paper', message: /Required/ },
      ],
    );
  });

  it('refuses missing and unknown fields, and a body that is not JSON', async () => {
    await expectRefused({ notes: 'x', discount: 5 }, [
      { field: 'customer_id', message: 'Required' },
      { field: 'items', message: 'Required' },
      { field: 'discount', message: 'Unknown field' },
    ]);
    expect((await call('POST', '/v1/orders', { key: own.secretTest, rawBody: '{"customer_id": ' })).status).toBe(400);
  });

  it('took no order number for a refused order', async () => {
    const order = await newOrder(own.secretTest, { customer_id: customer.id, items: [{ product_id: tracked.id, quantity: 2 }] });
    expect(order.order_number).toBe(`ORD-${new Date().getUTCFullYear()}-000001`);
    expect(order.id).toBe(1);
  });
});

describe('refused changes', () => {
  let own: Shop;
  let order: { id: number; version: number };
  beforeAll(async () => {
    own = await freshShop('Refused Changes Shop');
    const customer = await newCustomer(own.secretTest);
    const product = await newProduct(own.secretTest);
    order = await newOrder(own.secretTest, { customer_id: customer.id, items: [{ product_id: product.id, quantity: 1 }] });
  });

  it.each([
    ['an empty body', {}, '(body)'],
    ['an unknown status', { status: 'lost' }, 'status'],
    ['items together with status', { items: [{ product_id: 1, quantity: 1 }], status: 'confirmed' }, 'items'],
    ['a customer change', { customer_id: 5 }, 'customer_id'],
    ['a total', { total: 5 }, 'total'],
  ])('refuses %s with 422 and changes nothing', async (_name, body, field) => {
    const response = await putOrder(own.secretTest, order.id, body);
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body.error.details![0]!.field).toBe(field);
    const read = await call('GET', `/v1/orders/${order.id}`, { key: own.secretTest });
    expect(read.body.data.version).toBe(1);
  });

  it('refuses a malformed If-Match with 422', async () => {
    const response = await putOrder(own.secretTest, order.id, { notes: 'x' }, { 'If-Match': 'version one' });
    expect(response.status).toBe(422);
    expect(response.body.error.details![0]!.field).toBe('If-Match');
  });
});

/**
 * Stock taken by orders, through the real API: concurrent orders never oversell, the crossing of
 * the low-stock threshold writes exactly one `stock.low`, a cancel gives the stock back.
 */
import { describe, expect, inject, it } from 'vitest';
import { call } from '#test/support/http';
import { newCustomer, newOrder, putOrder, stockOf } from '#test/support/orders';
import { businessCards, createProduct, expectNoRemovedNames } from '#test/support/products';
import { ofKind, storedEvents } from '#test/support/store';

const { shop } = inject('fixtures');
const testTenant = { accountId: shop.accountId, mode: 'test' as const };
const key = shop.secretTest;

describe('stock', () => {
  async function trackedProduct(quantity: number, lowThreshold: number) {
    const product = await createProduct({
      ...businessCards(),
      min_qty: 1,
      stock: { tracked: true, quantity, low_threshold: lowThreshold },
    });
    return product.id as number;
  }
  const order = (customerId: number, lines: { product_id: number; quantity: number }[]) =>
    call('POST', '/v1/orders', {
      key,
      body: { customer_id: customerId, items: lines.map((line) => ({ ...line, options: { paper: 'matt300' } })) },
    });
  const lowEvents = async (id: number) =>
    ofKind(await storedEvents(testTenant), 'stock.low').filter((event) => event.data.product.id === id);

  it('never oversells the last units under concurrency and writes exactly one stock.low', async () => {
    const id = await trackedProduct(10, 3);
    const customer = await newCustomer(key);
    const results = await Promise.all(Array.from({ length: 25 }, () => order(customer.id, [{ product_id: id, quantity: 1 }])));
    const won = results.filter((result) => result.status === 201);
    const lost = results.filter((result) => result.status !== 201);
    expect(won).toHaveLength(10);
    expect(lost).toHaveLength(15);
    for (const failure of lost) {
      expect(failure.status).toBe(409);
      expect(failure.body.error.code).toBe('conflict');
      expect(failure.body.error.details![0]!.message).toMatch(/^only 0 of product \d+ in stock, 1 requested$/);
    }
    expect(await stockOf(key, id)).toBe(0);
    const events = await lowEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data.product.stock).toEqual({ tracked: true, quantity: 3, low_threshold: 3 });
    expectNoRemovedNames(events[0]!.data);
  });

  it('keeps the stock exact with concurrent orders of different sizes, with one event at the crossing', async () => {
    const id = await trackedProduct(30, 10);
    const customer = await newCustomer(key);
    const sizes = [3, 5, 2, 4, 7, 1, 6, 2, 5, 3, 4, 8];
    const results = await Promise.all(sizes.map((quantity) => order(customer.id, [{ product_id: id, quantity }])));
    expect(results.every((result) => result.status === 201 || result.status === 409)).toBe(true);
    const taken = sizes.filter((_, i) => results[i]!.status === 201).reduce((sum, size) => sum + size, 0);
    expect(taken).toBeLessThanOrEqual(30);
    expect(taken).toBeGreaterThan(30 - Math.max(...sizes)); // refused only when too little was left
    expect(await stockOf(key, id)).toBe(30 - taken);
    const events = await lowEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data.product.stock.quantity).toBeLessThanOrEqual(10);
  });

  it('refuses an order larger than the stock with 409, changing nothing', async () => {
    const id = await trackedProduct(5, 1);
    const customer = await newCustomer(key);
    const response = await order(customer.id, [
      { product_id: id, quantity: 2 },
      { product_id: id, quantity: 4 },
    ]);
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'conflict',
      details: [{ field: 'items.0.quantity', message: `only 5 of product ${id} in stock, 6 requested` }],
    });
    expect(await stockOf(key, id)).toBe(5);
    expect(await lowEvents(id)).toHaveLength(0);
  });

  it('releases stock on cancel, which re-arms the low-stock warning', async () => {
    const id = await trackedProduct(6, 2);
    const customer = await newCustomer(key);
    const first = await newOrder(key, {
      customer_id: customer.id,
      items: [{ product_id: id, quantity: 5, options: { paper: 'matt300' } }],
    });
    expect(await stockOf(key, id)).toBe(1);
    expect(await lowEvents(id)).toHaveLength(1);
    expect((await putOrder(key, first.id, { status: 'cancelled' })).status).toBe(200);
    expect(await stockOf(key, id)).toBe(6);
    await newOrder(key, { customer_id: customer.id, items: [{ product_id: id, quantity: 4, options: { paper: 'matt300' } }] });
    expect(await lowEvents(id)).toHaveLength(2);
    await newOrder(key, { customer_id: customer.id, items: [{ product_id: id, quantity: 1, options: { paper: 'matt300' } }] }); // already below: no further event
    expect(await lowEvents(id)).toHaveLength(2);
  });

  it('leaves untracked products alone', async () => {
    const untracked = (await createProduct({ ...businessCards(), min_qty: 1 })).id as number;
    const tracked = await trackedProduct(3, 0);
    const customer = await newCustomer(key);
    const created = await newOrder(key, {
      customer_id: customer.id,
      items: [
        { product_id: untracked, quantity: 500, options: { paper: 'matt300' } },
        { product_id: tracked, quantity: 3, options: { paper: 'matt300' } },
      ],
    });
    expect(created.items).toHaveLength(2);
    expect(await stockOf(key, untracked)).toBe(0);
    expect(await stockOf(key, tracked)).toBe(0);
    expect(await lowEvents(tracked)).toHaveLength(1); // 0 ≤ threshold 0
  });
});

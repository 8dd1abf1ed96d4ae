import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { tableName, transactWrite } from '#shared/db/table';
import { InsufficientStockError, reserveStock, stockReleaseItems } from '#shared/products/stock';
import { call } from '#test/support/http';
import { businessCards, createProduct, expectNoRemovedNames } from '#test/support/products';
import { storedEvents } from '#test/support/store';

const { shop } = inject('fixtures');
const testTenant = { accountId: shop.accountId, mode: 'test' as const };

/**
 * Stock reservations as the orders slice will make them (no orders endpoint yet): the repository
 * function is called directly, against the same DynamoDB the gateway uses.
 */
describe('stock', () => {
  async function trackedProduct(quantity: number, lowThreshold: number) {
    const product = await createProduct({ ...businessCards(), stock: { tracked: true, quantity, low_threshold: lowThreshold } });
    return product.id as number;
  }
  const storedQuantity = async (id: number) => (await call('GET', `/v1/products/${id}`)).body.data.stock.quantity;
  const lowEvents = async (id: number) => (await storedEvents(testTenant)).filter((event) => event.kind === 'stock.low' && event.data.product.id === id);

  it('never oversells the last units under concurrency and writes exactly one stock.low', async () => {
    const id = await trackedProduct(10, 3);
    const results = await Promise.allSettled(Array.from({ length: 25 }, () => reserveStock(testTenant, [{ product_id: id, quantity: 1 }])));
    const won = results.filter((result) => result.status === 'fulfilled');
    const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(won).toHaveLength(10);
    expect(lost).toHaveLength(15);
    for (const failure of lost) {
      expect(failure.reason).toBeInstanceOf(InsufficientStockError);
      expect(failure.reason.code).toBe('conflict');
    }
    expect(await storedQuantity(id)).toBe(0);
    const events = await lowEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data.product.stock).toEqual({ tracked: true, quantity: 3, low_threshold: 3 });
    expectNoRemovedNames(events[0]!.data);
  });

  it('keeps the stock exact with concurrent orders of different sizes, with one event at the crossing', async () => {
    const id = await trackedProduct(30, 10);
    const sizes = [3, 5, 2, 4, 7, 1, 6, 2, 5, 3, 4, 8];
    const results = await Promise.allSettled(sizes.map((quantity) => reserveStock(testTenant, [{ product_id: id, quantity }])));
    const taken = sizes.filter((_, i) => results[i]!.status === 'fulfilled').reduce((sum, size) => sum + size, 0);
    expect(taken).toBeLessThanOrEqual(30);
    expect(taken).toBeGreaterThan(30 - Math.max(...sizes)); // refused only when too little was left
    expect(await storedQuantity(id)).toBe(30 - taken);
    const events = await lowEvents(id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data.product.stock.quantity).toBeLessThanOrEqual(10);
    const crossing = results.find((result) => result.status === 'fulfilled' && result.value.lowStock.includes(id));
    expect(crossing).toBeDefined();
  });

  it('refuses an order larger than the stock with 409, changing nothing', async () => {
    const id = await trackedProduct(5, 1);
    await expect(reserveStock(testTenant, [{ product_id: id, quantity: 2 }, { product_id: id, quantity: 4 }])).rejects.toMatchObject({
      code: 'conflict',
      details: [{ field: 'items.0.quantity', message: `only 5 of product ${id} in stock, 6 requested` }],
    });
    expect(await storedQuantity(id)).toBe(5);
    expect(await lowEvents(id)).toHaveLength(0);
  });

  it('writes nothing when the companion items of the same transaction fail', async () => {
    const id = await trackedProduct(5, 4);
    const companion = {
      items: [{ ConditionCheck: { TableName: tableName(), Key: { pk: `missing-${randomUUID()}`, sk: 'X' }, ConditionExpression: 'attribute_exists(pk)' } }],
      onConditionFailure: () => new Error('order refused'),
    };
    await expect(reserveStock(testTenant, [{ product_id: id, quantity: 2 }], companion)).rejects.toThrow('order refused');
    expect(await storedQuantity(id)).toBe(5);
    expect(await lowEvents(id)).toHaveLength(0);
  });

  it('releases stock on cancel, which re-arms the low-stock warning', async () => {
    const id = await trackedProduct(6, 2);
    const first = await reserveStock(testTenant, [{ product_id: id, quantity: 5 }]);
    expect(first).toEqual({ reserved: [{ product_id: id, quantity: 5 }], lowStock: [id] });
    await transactWrite(stockReleaseItems(testTenant, first.reserved));
    expect(await storedQuantity(id)).toBe(6);
    await reserveStock(testTenant, [{ product_id: id, quantity: 4 }]);
    expect(await lowEvents(id)).toHaveLength(2);
    await reserveStock(testTenant, [{ product_id: id, quantity: 1 }]); // already below: no further event
    expect(await lowEvents(id)).toHaveLength(2);
  });

  it('leaves untracked products alone and refuses unknown ones with 422', async () => {
    const untracked = (await createProduct()).id as number;
    const tracked = await trackedProduct(3, 0);
    const result = await reserveStock(testTenant, [
      { product_id: untracked, quantity: 500 },
      { product_id: tracked, quantity: 3 },
    ]);
    expect(result).toEqual({ reserved: [{ product_id: tracked, quantity: 3 }], lowStock: [tracked] }); // 0 ≤ threshold 0
    expect(await storedQuantity(untracked)).toBe(0);
    await expect(reserveStock(testTenant, [{ product_id: 999_999, quantity: 1 }])).rejects.toMatchObject({ code: 'validation_failed', details: [{ field: 'items.0.product_id' }] });
  });
});

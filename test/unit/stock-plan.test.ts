import { describe, expect, it } from 'vitest';
import { VersionConflict } from '#shared/errors';
import { InsufficientStockError, planStock, stockReleaseItems } from '#shared/products/stock';
import type { ProductRecord } from '#shared/products/stored';
import { productRecord } from '#test/support/records';

const tenant = { accountId: 'acct_1', mode: 'test' as const };

const product = (id: number, stock: Partial<ProductRecord['stock']> = {}): ProductRecord =>
  productRecord({ id, name: `Product ${id}`, stock: { tracked: true, quantity: 10, low_threshold: 3, ...stock }, version: 4 });

const catalogue = (...products: ProductRecord[]) => new Map(products.map((entry) => [entry.id, entry]));
const updateOf = (part: { item: { Update?: unknown; ConditionCheck?: unknown } }) =>
  (part.item.Update ?? part.item.ConditionCheck) as {
    ConditionExpression: string;
    UpdateExpression?: string;
    ExpressionAttributeValues: Record<string, unknown>;
  };

describe('the stock plan of an order (pure: from the products already read)', () => {
  it('takes stock that stays above the threshold with a condition that leaves room, and no event', () => {
    const plan = planStock(tenant, catalogue(product(1)), [{ product_id: 1, quantity: 2 }]);
    expect(plan.reserved).toEqual([{ product_id: 1, quantity: 2 }]);
    expect(plan.events).toEqual([]);
    const update = updateOf(plan.parts[0]!);
    expect(update.ConditionExpression).toContain('stock_quantity >= :above');
    expect(update.ExpressionAttributeValues[':above']).toBe(3 + 2 + 1);
    expect(plan.parts[0]!.onConditionFailure()).toBeInstanceOf(VersionConflict);
  });

  it('pins the exact quantity and version when it crosses the threshold, with exactly one stock.low event', () => {
    const plan = planStock(tenant, catalogue(product(1)), [{ product_id: 1, quantity: 7 }]);
    const update = updateOf(plan.parts[0]!);
    expect(update.ConditionExpression).toContain('stock_quantity = :before AND #version = :version');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':before': 10, ':version': 4, ':qty': 7 });
    expect(plan.events).toHaveLength(1);
    const event = plan.events[0]!.Put!.Item!;
    expect(event.kind).toBe('stock.low');
    const data = event.data as { product: Record<string, unknown> };
    expect(data.product.stock).toEqual({ tracked: true, quantity: 3, low_threshold: 3 });
    // A slim product: the event item holds it twice (data and data_json), whatever the product's size.
    expect(Object.keys(data.product)).toEqual(['id', 'name', 'stock']);
    expect(JSON.parse(String(event.data_json))).toEqual(event.data);
  });

  it('adds lines of one product up, and nets them against what the order already holds', () => {
    const lines = [
      { product_id: 1, quantity: 2 },
      { product_id: 1, quantity: 3 },
    ];
    const plan = planStock(tenant, catalogue(product(1)), lines, { release: [{ product_id: 1, quantity: 5 }] });
    expect(plan.reserved).toEqual([{ product_id: 1, quantity: 5 }]);
    expect(updateOf(plan.parts[0]!).ConditionExpression).toBe('stock_tracked = :true'); // nothing moves: a check only
  });

  it('gives back what a dropped product held and moves the order references', () => {
    const plan = planStock(tenant, catalogue(product(1), product(2, { tracked: false })), [{ product_id: 2, quantity: 1 }], {
      release: [{ product_id: 1, quantity: 4 }],
      orderRefs: new Map([
        [1, -1],
        [2, 1],
      ]),
    });
    const [untracked, dropped] = plan.parts.map(updateOf);
    expect(untracked!.UpdateExpression).toBe('ADD order_refs :ref');
    expect(dropped!.UpdateExpression).toBe('ADD stock_quantity :back, order_refs :ref');
    expect(dropped!.ExpressionAttributeValues).toEqual({ ':back': 4, ':ref': -1 });
    expect(plan.reserved).toEqual([]);
  });

  it('refuses too little stock with 409 and unknown products with 422, naming the line', () => {
    expect(() => planStock(tenant, catalogue(product(1)), [{ product_id: 1, quantity: 11 }])).toThrow(InsufficientStockError);
    try {
      planStock(tenant, catalogue(), [{ product_id: 9, quantity: 1 }]);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'items.0.product_id', message: 'No product with id 9' }],
      });
    }
  });

  it('gives reserved stock back on a cancel, one item per product', () => {
    const items = stockReleaseItems(tenant, [
      { product_id: 1, quantity: 2 },
      { product_id: 1, quantity: 3 },
    ]);
    expect(items).toHaveLength(1);
    expect(items[0]!.Update!.ExpressionAttributeValues).toEqual({ ':qty': 5 });
  });
});

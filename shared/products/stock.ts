/**
 * Stock reservation for orders and checkouts. The orders slice calls `reserveStock` with its own
 * transaction items (the order, its event…): the decrements join that one TransactWriteItems, so
 * the order exists exactly when its stock was taken.
 *
 * Overselling and duplicate `stock.low` events are prevented by the database, not by the read:
 * each decrement carries a condition that pins down which side of `low_threshold` it lands on —
 *   stays above:   stock_quantity ≥ threshold + qty + 1                 (no event)
 *   already below: qty ≤ stock_quantity ≤ threshold                     (no event)
 *   crosses:       stock_quantity = <the exact quantity read>, version  (+ the stock.low event)
 * so of any number of concurrent decrements exactly the one that really crosses the threshold
 * commits the event, and none can take the quantity below zero. A decrement whose condition
 * fails re-reads (strongly consistent) and re-plans; when the fresh read shows too little stock
 * the caller gets 409 and nothing is written.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { eventPut } from '../../events/outbox';
import type { Tenant } from '../auth/principal';
import { getMany } from '../db/collections';
import { tenantKeys } from '../db/keys';
import { tableName, transactWrite, type ConditionFailureMap, type TransactItem } from '../db/table';
import { ConflictError, ValidationError, type ErrorDetail } from '../http/errors';
import { productFromItem, type ProductRecord } from './items';
import { presentProduct } from './present';

export interface StockLine {
  product_id: number;
  quantity: number;
}

/** The caller's own items for the same transaction, and how their condition failures map to errors. */
export interface Companion {
  items: TransactItem[];
  onConditionFailure?: ConditionFailureMap;
}

export interface Reservation {
  /** Lines of tracked products whose stock was taken, one per product; hand these to `stockReleaseItems` on cancel. */
  reserved: StockLine[];
  /** Product ids whose decrement crossed `low_threshold` (a stock.low event was written). */
  lowStock: number[];
}

const MAX_ATTEMPTS = 10;

/** A stock condition failed: the quantity moved since our read. Re-read and re-plan. */
class StockMoved extends Error {}

export class InsufficientStockError extends ConflictError {}

interface Planned {
  items: TransactItem[];
  reserved: StockLine[];
  lowStock: number[];
}

/** One line per product (a transaction may touch an item once), remembering the first line index. */
function aggregate(lines: StockLine[]): Map<number, { quantity: number; index: number }> {
  const byProduct = new Map<number, { quantity: number; index: number }>();
  lines.forEach((line, index) => {
    const seen = byProduct.get(line.product_id);
    if (seen) seen.quantity += line.quantity;
    else byProduct.set(line.product_id, { quantity: line.quantity, index });
  });
  return byProduct;
}

function decrement(tenant: Tenant, product: ProductRecord, quantity: number): { item: TransactItem; event?: TransactItem } {
  const { quantity: before, low_threshold: threshold } = product.stock;
  const values: Record<string, unknown> = { ':true': true, ':qty': quantity, ':thr': threshold };
  let condition = 'stock_tracked = :true AND stock_low_threshold = :thr AND ';
  let event: TransactItem | undefined;
  if (before - quantity > threshold) {
    condition += 'stock_quantity >= :above';
    values[':above'] = threshold + quantity + 1;
  } else if (before <= threshold) {
    condition += 'stock_quantity <= :thr AND stock_quantity >= :qty';
  } else {
    // This decrement crosses the threshold: only with exactly the quantity (and product) we read.
    condition += 'stock_quantity = :before AND #version = :version';
    values[':before'] = before;
    values[':version'] = product.version;
    const remaining = presentProduct({ ...product, stock: { ...product.stock, quantity: before - quantity } });
    event = eventPut(tenant, 'stock.low', remaining).item;
  }
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: tenantKeys.product(tenant, product.id),
        UpdateExpression: 'SET stock_quantity = stock_quantity - :qty',
        ConditionExpression: condition,
        ...(condition.includes('#version') ? { ExpressionAttributeNames: { '#version': 'version' } } : {}),
        ExpressionAttributeValues: values,
      },
    },
    event,
  };
}

/** An untracked product must still be untracked when the transaction commits. */
const untrackedCheck = (tenant: Tenant, productId: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: tenantKeys.product(tenant, productId),
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(stock_tracked) OR stock_tracked = :false)',
    ExpressionAttributeValues: { ':false': false },
  },
});

async function plan(tenant: Tenant, lines: StockLine[], field: string): Promise<Planned> {
  const wanted = aggregate(lines);
  const ids = [...wanted.keys()];
  const items = await getMany(ids.map((id) => tenantKeys.product(tenant, id)), { consistent: true });
  const products = new Map(items.map((item) => [Number(item.id), productFromItem(item)]));
  const missing: ErrorDetail[] = [];
  const short: ErrorDetail[] = [];
  for (const [id, { quantity, index }] of wanted) {
    const product = products.get(id);
    if (!product) missing.push({ field: `${field}.${index}.product_id`, message: `No product with id ${id}` });
    else if (product.stock.tracked && product.stock.quantity < quantity) {
      short.push({ field: `${field}.${index}.quantity`, message: `only ${product.stock.quantity} of product ${id} in stock, ${quantity} requested` });
    }
  }
  if (missing.length) throw new ValidationError('Unknown products', missing);
  if (short.length) throw new InsufficientStockError('Not enough stock', short);

  const planned: Planned = { items: [], reserved: [], lowStock: [] };
  const events: TransactItem[] = [];
  for (const [id, { quantity }] of wanted) {
    const product = products.get(id)!;
    if (!product.stock.tracked) {
      planned.items.push(untrackedCheck(tenant, id));
      continue;
    }
    const { item, event } = decrement(tenant, product, quantity);
    planned.items.push(item);
    planned.reserved.push({ product_id: id, quantity });
    if (event) {
      events.push(event);
      planned.lowStock.push(id);
    }
  }
  planned.items.push(...events);
  return planned;
}

/**
 * Takes stock for `lines` in one transaction together with the companion's items. Throws 409
 * (InsufficientStockError) when a tracked product has too little stock, 422 for unknown products,
 * or whatever the companion's condition failures map to; in every failure nothing is written.
 * `field` names the lines in error details (`items.0.quantity`).
 */
export async function reserveStock(tenant: Tenant, lines: StockLine[], companion: Companion = { items: [] }, field = 'items'): Promise<Reservation> {
  for (const line of lines) {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) throw new RangeError('Stock line quantities must be positive integers');
  }
  if (lines.length === 0) throw new RangeError('reserveStock needs at least one line');
  const own = companion.items.length;
  for (let attempt = 1; ; attempt++) {
    const planned = await plan(tenant, lines, field);
    try {
      await transactWrite([...companion.items, ...planned.items], (index, item) => {
        if (index < own) return companion.onConditionFailure?.(index, item);
        return new StockMoved();
      });
      return { reserved: planned.reserved, lowStock: planned.lowStock };
    } catch (error) {
      const retryable = error instanceof StockMoved || onlyConflicts(error);
      if (!retryable) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('Stock changed too often while this request ran; try again');
      // Jittered pause so that colliding requests do not collide again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

/** Cancelled only because other transactions touched the same items (no condition failed). */
const onlyConflicts = (error: unknown): boolean =>
  error instanceof TransactionCanceledException &&
  (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict') &&
  (error.CancellationReasons ?? []).every((reason) => reason.Code === 'TransactionConflict' || reason.Code === 'None');

/** For cancellations: transaction items that give reserved stock back (no event: stock rises). */
export function stockReleaseItems(tenant: Tenant, reserved: StockLine[]): TransactItem[] {
  return [...aggregate(reserved)].map(([productId, { quantity }]) => ({
    Update: {
      TableName: tableName(),
      Key: tenantKeys.product(tenant, productId),
      UpdateExpression: 'ADD stock_quantity :qty',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':qty': quantity },
    },
  }));
}

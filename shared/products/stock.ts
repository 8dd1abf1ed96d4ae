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
import { eventPut } from '#shared/events/outbox';
import type { Tenant } from '#shared/auth/principal';
import { getMany } from '#shared/db/collections';
import { tenantKeys } from '#shared/db/keys';
import { isTransactionCanceled, tableName, transactWrite, type ConditionFailureMap, type TransactItem } from '#shared/db/table';
import { ConflictError, ValidationError, type ErrorDetail } from '#shared/errors';
import { productFromItem, type ProductRecord } from './items';
import { presentProduct } from './present';

export interface StockLine {
  product_id: number;
  quantity: number;
}

/** The caller's own items for the same transaction, and how their condition failures map to errors. */
export interface Companion {
  /**
   * Fixed items, or a function of the plan, called once per attempt, for callers that record in
   * their own item which stock they hold (an order stores `reserved` for a later cancel).
   */
  items: TransactItem[] | ((plan: Reservation) => TransactItem[]);
  onConditionFailure?: ConditionFailureMap;
}

/**
 * Changes folded into each product's one transaction item (DynamoDB lets a transaction touch an
 * item only once, so these cannot be separate items next to the decrements).
 */
export interface StockAdjustments {
  /**
   * Stock the caller already holds for the same purpose (an order's reservation before its lines
   * are replaced): netted per product against `lines`, so only the difference is taken or given back.
   */
  release?: StockLine[];
  /** Moves of `order_refs` per product id (orders slice): what turns a product delete into an archive. */
  orderRefs?: ReadonlyMap<number, number>;
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

function decrement(tenant: Tenant, product: ProductRecord, quantity: number, refs = 0): { item: TransactItem; event?: TransactItem } {
  const { quantity: before, low_threshold: threshold } = product.stock;
  const values: Record<string, unknown> = { ':true': true, ':qty': quantity, ':thr': threshold, ...(refs ? { ':ref': refs } : {}) };
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
        UpdateExpression: `SET stock_quantity = stock_quantity - :qty${refs ? ' ADD order_refs :ref' : ''}`,
        ConditionExpression: condition,
        ...(condition.includes('#version') ? { ExpressionAttributeNames: { '#version': 'version' } } : {}),
        ExpressionAttributeValues: values,
      },
    },
    event,
  };
}

/** What must still hold of a product whose stock does not go down, when the transaction commits. */
const steadyConditions = {
  untracked: 'attribute_exists(pk) AND (attribute_not_exists(stock_tracked) OR stock_tracked = :false)',
  tracked: 'stock_tracked = :true',
  exists: 'attribute_exists(pk)',
};

/**
 * The one item of a product whose stock does not go down: its condition (an untracked product
 * still untracked, a tracked one still tracked), plus giving stock back and moving `order_refs`
 * when asked — a ConditionCheck when there is nothing to add.
 */
function steadyItem(tenant: Tenant, productId: number, condition: keyof typeof steadyConditions, giveBack: number, refs: number): TransactItem {
  const adds = [...(giveBack ? ['stock_quantity :back'] : []), ...(refs ? ['order_refs :ref'] : [])];
  const values = {
    ...(condition === 'untracked' ? { ':false': false } : condition === 'tracked' ? { ':true': true } : {}),
    ...(giveBack ? { ':back': giveBack } : {}),
    ...(refs ? { ':ref': refs } : {}),
  };
  const base = {
    TableName: tableName(),
    Key: tenantKeys.product(tenant, productId),
    ConditionExpression: steadyConditions[condition],
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}), // DynamoDB refuses an empty map
  };
  return adds.length ? { Update: { ...base, UpdateExpression: `ADD ${adds.join(', ')}` } } : { ConditionCheck: base };
}

async function plan(tenant: Tenant, lines: StockLine[], field: string, adjustments: StockAdjustments): Promise<Planned> {
  const wanted = aggregate(lines);
  const held = aggregate(adjustments.release ?? []);
  const refs = adjustments.orderRefs ?? new Map<number, number>();
  const heldOf = (id: number): number => held.get(id)?.quantity ?? 0;
  const ids = [...wanted.keys()];
  const items = await getMany(ids.map((id) => tenantKeys.product(tenant, id)), { consistent: true });
  const products = new Map(items.map((item) => [Number(item.id), productFromItem(item)]));
  const missing: ErrorDetail[] = [];
  const short: ErrorDetail[] = [];
  for (const [id, { quantity, index }] of wanted) {
    const product = products.get(id);
    if (!product) missing.push({ field: `${field}.${index}.product_id`, message: `No product with id ${id}` });
    else if (product.stock.tracked && product.stock.quantity < quantity - heldOf(id)) {
      const more = heldOf(id) > 0 ? ` more (${heldOf(id)} already held)` : '';
      short.push({ field: `${field}.${index}.quantity`, message: `only ${product.stock.quantity} of product ${id} in stock, ${quantity - heldOf(id)}${more} requested` });
    }
  }
  if (missing.length) throw new ValidationError('Unknown products', missing);
  if (short.length) throw new InsufficientStockError('Not enough stock', short);

  const planned: Planned = { items: [], reserved: [], lowStock: [] };
  const events: TransactItem[] = [];
  for (const [id, { quantity }] of wanted) {
    const product = products.get(id)!;
    const ref = refs.get(id) ?? 0;
    if (!product.stock.tracked) {
      // Nothing is held for an untracked product; what was held before it stopped being tracked goes back.
      planned.items.push(steadyItem(tenant, id, 'untracked', heldOf(id), ref));
      continue;
    }
    planned.reserved.push({ product_id: id, quantity });
    const net = quantity - heldOf(id);
    if (net <= 0) {
      planned.items.push(steadyItem(tenant, id, 'tracked', -net, ref));
      continue;
    }
    const { item, event } = decrement(tenant, product, net, ref);
    planned.items.push(item);
    if (event) {
      events.push(event);
      planned.lowStock.push(id);
    }
  }
  // Products the caller no longer wants: give back what it held, move their references.
  for (const id of new Set([...held.keys(), ...refs.keys()])) {
    if (wanted.has(id) || (heldOf(id) === 0 && !refs.get(id))) continue;
    planned.items.push(steadyItem(tenant, id, 'exists', heldOf(id), refs.get(id) ?? 0));
  }
  planned.items.push(...events);
  return planned;
}

/**
 * Takes stock for `lines` in one transaction together with the companion's items. Throws 409
 * (InsufficientStockError) when a tracked product has too little stock, 422 for unknown products,
 * or whatever the companion's condition failures map to; in every failure nothing is written.
 * `field` names the lines in error details (`items.0.quantity`). `adjustments` net an earlier
 * reservation of the same caller against `lines` and move `order_refs`, inside the same items.
 */
export async function reserveStock(
  tenant: Tenant,
  lines: StockLine[],
  companion: Companion = { items: [] },
  field = 'items',
  adjustments: StockAdjustments = {},
): Promise<Reservation> {
  for (const line of lines) {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) throw new RangeError('Stock line quantities must be positive integers');
  }
  if (lines.length === 0) throw new RangeError('reserveStock needs at least one line');
  for (let attempt = 1; ; attempt++) {
    const planned = await plan(tenant, lines, field, adjustments);
    const reservation: Reservation = { reserved: planned.reserved, lowStock: planned.lowStock };
    const ownItems = typeof companion.items === 'function' ? companion.items(reservation) : companion.items;
    const own = ownItems.length;
    try {
      await transactWrite([...ownItems, ...planned.items], (index, item) => {
        if (index < own) return companion.onConditionFailure?.(index, item);
        return new StockMoved();
      });
      return reservation;
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
  isTransactionCanceled(error) &&
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

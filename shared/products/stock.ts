/**
 * Stock planning for orders — a pure function of the products already read: which transaction
 * items take (or give back) stock, which stock the order then holds, and which `stock.low`
 * events the same transaction writes. The caller (the orders repository) writes the plan in the
 * one transaction that also writes the order, so the order exists exactly when its stock was taken.
 *
 * Overselling and duplicate `stock.low` events are prevented by the database, not by the read:
 * each decrement carries a condition that pins down which side of `low_threshold` it lands on —
 *   stays above:   stock_quantity ≥ threshold + qty + 1                 (no event)
 *   already below: qty ≤ stock_quantity ≤ threshold                     (no event)
 *   crosses:       stock_quantity = <the exact quantity read>, version  (+ the stock.low event)
 * so of any number of concurrent decrements exactly the one that really crosses the threshold
 * commits the event, and none can take the quantity below zero. When a stock condition fails the
 * write throws a VersionConflict: the caller reads the products again (strongly consistent) and
 * plans again; when that read shows too little stock, the answer is 409 and nothing is written.
 */
import type { Tenant } from '#shared/auth/principal';
import { tenantKeys } from '#shared/db/keys';
import { tableName, type TransactItem, type TransactionPart } from '#shared/db/table';
import { ConflictError, ValidationError, VersionConflict, type ErrorDetail } from '#shared/errors';
import { stockLow, stockLowProduct } from './events';
import type { ProductRecord } from './stored';

export interface StockLine {
  product_id: number;
  quantity: number;
}

/** What the order already holds and how its product references move (both folded into each product's one item). */
export interface StockAdjustments {
  /**
   * Stock the order already holds (its reservation before its lines are replaced): netted per
   * product against the new lines, so only the difference is taken or given back.
   */
  release?: StockLine[];
  /** Moves of `order_refs` per product id: what turns a product delete into an archive. */
  orderRefs?: ReadonlyMap<number, number>;
}

export interface StockPlan {
  /** One item per product touched (DynamoDB lets a transaction touch an item once); a failed condition is a VersionConflict. */
  parts: TransactionPart[];
  /** The `stock.low` events of the decrements that cross their threshold. */
  events: TransactItem[];
  /** Tracked stock the order holds afterwards, one line per product (what a cancel gives back). */
  reserved: StockLine[];
}

export class InsufficientStockError extends ConflictError {}

/** One line per product, remembering the first line's index (for error details). */
function aggregate(lines: readonly StockLine[]): Map<number, { quantity: number; index: number }> {
  const byProduct = new Map<number, { quantity: number; index: number }>();
  lines.forEach((line, index) => {
    const seen = byProduct.get(line.product_id);
    if (seen) seen.quantity += line.quantity;
    else byProduct.set(line.product_id, { quantity: line.quantity, index });
  });
  return byProduct;
}

const stockMoved = (): TransactionPart['onConditionFailure'] => () => new VersionConflict('stock');

function decrement(
  tenant: Tenant,
  product: ProductRecord,
  quantity: number,
  refs: number,
): { part: TransactionPart; event?: TransactItem } {
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
    event = stockLow(tenant, { product: stockLowProduct(product, before - quantity) });
  }
  const item: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.product(tenant, product.id),
      UpdateExpression: `SET stock_quantity = stock_quantity - :qty${refs ? ' ADD order_refs :ref' : ''}`,
      ConditionExpression: condition,
      ...(condition.includes('#version') ? { ExpressionAttributeNames: { '#version': 'version' } } : {}),
      ExpressionAttributeValues: values,
    },
  };
  return { part: { item, onConditionFailure: stockMoved() }, event };
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
function steadyItem(
  tenant: Tenant,
  productId: number,
  condition: keyof typeof steadyConditions,
  giveBack: number,
  refs: number,
): TransactionPart {
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
  return {
    item: adds.length ? { Update: { ...base, UpdateExpression: `ADD ${adds.join(', ')}` } } : { ConditionCheck: base },
    onConditionFailure: stockMoved(),
  };
}

/**
 * Plans the stock of `lines` from `products` (read strongly consistent just before). Throws 422
 * for products that do not exist and 409 (InsufficientStockError) when a tracked product has too
 * little stock; `field` names the lines in error details (`items.0.quantity`).
 */
export function planStock(
  tenant: Tenant,
  products: ReadonlyMap<number, ProductRecord>,
  lines: readonly StockLine[],
  adjustments: StockAdjustments = {},
  field = 'items',
): StockPlan {
  for (const line of lines) {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) throw new RangeError('Stock line quantities must be positive integers');
  }
  const wanted = aggregate(lines);
  const held = aggregate(adjustments.release ?? []);
  const refs = adjustments.orderRefs ?? new Map<number, number>();
  const heldOf = (id: number): number => held.get(id)?.quantity ?? 0;

  const missing: ErrorDetail[] = [];
  const short: ErrorDetail[] = [];
  for (const [id, { quantity, index }] of wanted) {
    const product = products.get(id);
    if (!product) missing.push({ field: `${field}.${index}.product_id`, message: `No product with id ${id}` });
    else if (product.stock.tracked && product.stock.quantity < quantity - heldOf(id)) {
      const more = heldOf(id) > 0 ? ` more (${heldOf(id)} already held)` : '';
      short.push({
        field: `${field}.${index}.quantity`,
        message: `only ${product.stock.quantity} of product ${id} in stock, ${quantity - heldOf(id)}${more} requested`,
      });
    }
  }
  if (missing.length) throw new ValidationError('Unknown products', missing);
  if (short.length) throw new InsufficientStockError('Not enough stock', short);

  const plan: StockPlan = { parts: [], events: [], reserved: [] };
  for (const [id, { quantity }] of wanted) {
    const product = products.get(id)!;
    const ref = refs.get(id) ?? 0;
    if (!product.stock.tracked) {
      // Nothing is held for an untracked product; what was held before it stopped being tracked goes back.
      plan.parts.push(steadyItem(tenant, id, 'untracked', heldOf(id), ref));
      continue;
    }
    plan.reserved.push({ product_id: id, quantity });
    const net = quantity - heldOf(id);
    if (net <= 0) {
      plan.parts.push(steadyItem(tenant, id, 'tracked', -net, ref));
      continue;
    }
    const { part, event } = decrement(tenant, product, net, ref);
    plan.parts.push(part);
    if (event) plan.events.push(event);
  }
  // Products the order no longer wants: give back what it held, move their references.
  for (const id of new Set([...held.keys(), ...refs.keys()])) {
    if (wanted.has(id) || (heldOf(id) === 0 && !refs.get(id))) continue;
    plan.parts.push(steadyItem(tenant, id, 'exists', heldOf(id), refs.get(id) ?? 0));
  }
  return plan;
}

/** For cancellations: transaction items that give reserved stock back (no event: stock rises). */
export function stockReleaseItems(tenant: Tenant, reserved: readonly StockLine[]): TransactItem[] {
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

/**
 * The order's owner: every write to an order item — a change by hand, a move by production or by
 * shipments, a cancellation and what it cascades to — is built here, from the one transition table
 * (status.ts) and orders' own item builders (stored.ts). Other domains and the process layer
 * (shared/fulfilment) ask for these parts and join them to their own transactions; none builds an
 * order key, update expression or condition of its own (the lint keeps it so, eslint.config.js).
 *
 * Pure: builds transaction parts; the caller writes them in one transaction with its own. A failed
 * condition on the order means it moved since it was read (VersionConflict: read again).
 */
import type { Tenant } from '#shared/auth/principal';
import { tenantKeys, type ItemKey } from '#shared/db/keys';
import { tableName, type TransactItem, type TransactionPart } from '#shared/db/table';
import { ConflictError, NotFoundError, VersionConflict } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { stockReleaseItems } from '#shared/products/stock';
import { changeEvents } from './events';
import { assertMove, enteredEvents, type Mover, type OrderStatus } from './status';
import { orderUpdate, statusMoveItems, storedOrder, type OrderLineRecord, type OrderRecord, type OrderUpdateExtras } from './stored';

export type Part = TransactItem | TransactionPart;

const orderMoved = () => new VersionConflict('order');

/** The order item's key, for a reader that reads the order with items of its own in one batch. */
export const orderKey = (tenant: Tenant, id: number): ItemKey => tenantKeys.order(tenant, id);

export interface OrderChange {
  /** Who changes it: by hand (`PUT /v1/orders/{id}`), production (its jobs) or shipments (their milestones). */
  by: Mover;
  /** States passed through on the way to `after.status`, in order (shipments ship and complete at once: `['shipped']`). */
  via?: readonly OrderStatus[];
  /** What the mover sets and requires in the same update (production's job counters), besides the order's fields. */
  extras?: OrderUpdateExtras;
  /** The events' time (the change's own); now when not given. */
  now?: Date;
}

/**
 * The parts of one change of the order from `before` to `after`: the order's update (conditional
 * on the status and version read, and on `extras.condition`); when the status moves — along the
 * transition table, each step one `by` may make — its list and counter moves, the stock a cancel
 * gives back, and `order.updated` with the kind of each state entered (`order.shipped`, …).
 */
export function orderChangeParts(tenant: Tenant, before: OrderRecord, after: OrderRecord, change: OrderChange): Part[] {
  const moves = before.status !== after.status;
  const path = moves ? [before.status, ...(change.via ?? []), after.status] : [];
  for (let step = 1; step < path.length; step++) assertMove(change.by, path[step - 1]!, path[step]!);
  const view = storedOrder.view(after);
  const kinds = moves ? ['order.updated' as const, ...enteredEvents(path.slice(1))] : (['order.updated'] as const);
  return [
    { item: orderUpdate(tenant, before, after, change.extras), onConditionFailure: orderMoved },
    ...(moves ? statusMoveItems(tenant, before, before.status, after.status) : []),
    ...(moves && after.status === 'cancelled' ? stockReleaseItems(tenant, before.reserved) : []),
    ...kinds.map((kind) => eventPut(tenant, changeEvents[kind], { order: view }, change.now).item),
  ];
}

/** The order states in which a line's artwork may be replaced (docs/orders.md#replacing-a-lines-artwork). */
export const ARTWORK_REPLACEABLE: readonly OrderStatus[] = ['confirmed', 'in_production'];

/** 409 unless the order is confirmed or in production, 404 unless it has line `lineId` (checked before the files are). */
export function assertArtworkReplaceable(order: OrderRecord, lineId: number): void {
  if (!ARTWORK_REPLACEABLE.includes(order.status)) {
    throw new ConflictError(
      order.status === 'pending'
        ? `Order ${order.id} is pending: change its lines with PUT /v1/orders/${order.id}`
        : `A line's artwork can only be replaced while the order is confirmed or in production; it is ${order.status}`,
      [{ field: 'status', message: order.status }],
    );
  }
  if (!order.items.some((line) => line.id === lineId)) throw new NotFoundError('order line', lineId);
}

/**
 * A change of kind "artwork": line `lineId` of a confirmed (or in-production) order prints other
 * files — its `file_ids` and their copies (with their SHA-256) replaced, nothing else (prices,
 * totals, stock stay). 404 for an unknown line, 409 in any other state (a pending order changes
 * its lines with `PUT /v1/orders/{id}`; a shipped, completed or cancelled one no more). The parts
 * are those of any change without a move: the order's update, conditional on its status and
 * version, and `order.updated`.
 */
export function lineArtworkChange(
  tenant: Tenant,
  before: OrderRecord,
  lineId: number,
  files: Pick<OrderLineRecord, 'file_ids' | 'files'>,
  now = new Date(),
): { after: OrderRecord; parts: Part[] } {
  assertArtworkReplaceable(before, lineId);
  const after: OrderRecord = {
    ...before,
    items: before.items.map((line) => (line.id === lineId ? { ...line, file_ids: [...files.file_ids], files: [...files.files] } : line)),
    updated_at: now.toISOString(),
    version: before.version + 1,
  };
  return { after, parts: orderChangeParts(tenant, before, after, { by: 'hand', now }) };
}

/**
 * Production's first start of an order that was moved to in_production by hand: only the start
 * time is set, once, and the version stays (nothing the API shows changes: a client's If-Match
 * stays valid).
 */
export const productionStartMark = (tenant: Tenant, orderId: number, now: string): Part => ({
  item: {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.order(tenant, orderId),
      UpdateExpression: 'SET production_started_at = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(production_started_at)',
      ExpressionAttributeValues: { ':now': now },
    },
  },
  onConditionFailure: orderMoved,
});

/**
 * A production job of the order closed without finishing it: its count of open jobs goes down and
 * of completed ones up (by `completed`), conditional on whether that job was its last open one —
 * so two jobs closing together cannot both take themselves for the last.
 */
export const jobClosedCount = (tenant: Tenant, orderId: number, completed: 0 | 1, last: boolean): Part => ({
  item: {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.order(tenant, orderId),
      UpdateExpression: 'ADD open_jobs :minus, completed_jobs :completed',
      ConditionExpression: last ? 'open_jobs = :one' : 'open_jobs > :one',
      ExpressionAttributeValues: { ':minus': -1, ':completed': completed, ':one': 1 },
    },
  },
  onConditionFailure: orderMoved,
});

/** The order is still in `status` (a shipment is reserved only while its order is as it was read). */
export const orderStatusCheck = (tenant: Tenant, orderId: number, status: OrderStatus): Part => ({
  item: {
    ConditionCheck: {
      TableName: tableName(),
      Key: tenantKeys.order(tenant, orderId),
      ConditionExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
    },
  },
  onConditionFailure: orderMoved,
});

/** The order may be invoiced: it exists and is neither pending nor cancelled (checked in the invoice's transaction). */
export function orderInvoiceableCheck(tenant: Tenant, orderId: number): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: tenantKeys.order(tenant, orderId),
      ConditionExpression: 'attribute_exists(pk) AND #status <> :pending AND #status <> :cancelled',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':cancelled': 'cancelled' },
    },
  };
}

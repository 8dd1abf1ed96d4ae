/**
 * Orders in the single table. Every write is one TransactWriteItems that the repository
 * assembles whole: the order, its bookkeeping, the stock items the service planned
 * (shared/products/stock.ts) and the events. A failed condition means what its item's role says:
 * the customer gone (422), the order or its stock changed since they were read (VersionConflict:
 * the service reads again and retries). Keys and access patterns: docs/data-model.md.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { countCollectionUpTo, readTotal, readWindow, type CollectionQuery, type PageRequest, type Total } from '#shared/db/collections';
import { createdSortKey, tenantKeys } from '#shared/db/keys';
import { tableName, type TransactItem, type TransactionPart } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { NotFoundError } from '#shared/errors';
import { ORDERS, customerCountAttribute, orderFromItem, type OrderRecord } from './stored';
import type { OrderStatus } from './status';

/** Creates an order: its plan's parts (creation.ts `planOrderCreation`) with what its creator joins, one transaction. */
export async function insertOrder(parts: (TransactItem | TransactionPart)[]): Promise<void> {
  await transactWrite(parts);
}

export async function readOrder(tenant: Tenant, id: number, consistent = false): Promise<OrderRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: tenantKeys.order(tenant, id), ConsistentRead: consistent }),
  );
  return result.Item ? orderFromItem(result.Item) : undefined;
}

export async function requireOrder(tenant: Tenant, id: number, consistent = false): Promise<OrderRecord> {
  const order = await readOrder(tenant, id, consistent);
  if (!order) throw new NotFoundError('order', id);
  return order;
}

/**
 * Writes a change of an order: its parts (transitions.ts `orderChangeParts`: the order, its list and
 * counter moves, the stock a cancel gives back, its events) with what else the change writes — the
 * jobs production creates or cancels with it, the stock difference of new lines.
 */
export async function writeOrderChange(parts: (TransactItem | TransactionPart)[]): Promise<void> {
  await transactWrite(parts);
}

export interface OrderFilter {
  status?: OrderStatus;
  customerId?: number;
  /** Inclusive ISO bounds on created_at. */
  from?: string;
  to?: string;
  /** Cursor: only orders older than this one (created_at, id). */
  before?: { created_at: string; id: number };
}

// Bounds that sort below and above every `<ISO time>#<id>` sort key.
const LOWEST = '0';
const HIGHEST = '~';

/** The sort-key window of the date filters and the cursor (the cursor's own order excluded). */
function sortKeyWindow(filter: OrderFilter): [string, string] | undefined {
  if (filter.from === undefined && filter.to === undefined && filter.before === undefined) return undefined;
  let upper = filter.to === undefined ? HIGHEST : `${filter.to}#${HIGHEST}`;
  if (filter.before) {
    // Ids are padded to a fixed width, so (time, id − 1) is the greatest key below the cursor's.
    const belowCursor = createdSortKey(filter.before.created_at, filter.before.id - 1);
    if (belowCursor < upper) upper = belowCursor;
  }
  return [filter.from ?? LOWEST, upper];
}

/** Reads a customer's order counters (attributes of the customer item); undefined when no such customer. */
export async function customerOrderCounts(tenant: Tenant, customerId: number): Promise<Record<string, number> | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.customer(tenant, customerId) }));
  if (!result.Item) return undefined;
  return Object.fromEntries(
    Object.entries(result.Item)
      .filter(([name]) => name.startsWith('order_count'))
      .map(([name, value]) => [name, Number(value)]),
  );
}

/**
 * Every filter combination is one Query on one keys-only index partition, newest first; the
 * page's keys (and one more, to know whether more follow) are mapped to order items and read with
 * one BatchGetItem. Totals come from counters, or — with a date range — from a keys-only COUNT
 * over the same window that stops at TOTAL_CAP (then `capped`: a lower bound).
 */
export async function listOrders(
  tenant: Tenant,
  filter: OrderFilter,
  page: PageRequest,
  /** The customer's counters when the caller has read them already (customer orders endpoint). */
  counts?: Record<string, number>,
): Promise<{ items: OrderRecord[]; hasMore: boolean } & Total> {
  const { status, customerId } = filter;
  let query: CollectionQuery;
  if (customerId !== undefined) {
    query = status
      ? { index: 'gsi2', partition: tenantKeys.customerOrdersByStatus(tenant, customerId, status), newestFirst: true }
      : { index: 'gsi1', partition: tenantKeys.customerOrders(tenant, customerId), newestFirst: true };
  } else {
    query = status
      ? { index: 'gsi2', partition: tenantKeys.ordersByStatus(tenant, status), newestFirst: true }
      : { index: 'gsi1', partition: tenantKeys.ordersCollection(tenant), newestFirst: true };
  }
  const pageWindow = sortKeyWindow(filter);
  // The total is the whole filtered list's, whatever the cursor: counted over the date window only.
  const dateWindow = sortKeyWindow({ ...filter, before: undefined });
  const total = async (): Promise<Total> => {
    if (dateWindow) return countCollectionUpTo({ ...query, sortKeyBetween: dateWindow });
    const attribute = customerCountAttribute(status);
    if (customerId !== undefined)
      return { total: (counts ?? (await customerOrderCounts(tenant, customerId)))?.[attribute] ?? 0, capped: false };
    return { total: await readTotal(tenant, status ? `${ORDERS}:${status}` : ORDERS), capped: false };
  };
  const [window, count] = await Promise.all([
    // A cursor older than created_from leaves an empty window (and DynamoDB refuses BETWEEN high AND low).
    pageWindow && pageWindow[0] > pageWindow[1]
      ? { items: [], hasMore: false }
      : readWindow(
          { ...query, ...(pageWindow ? { sortKeyBetween: pageWindow } : {}), itemKey: tenantKeys.orderOfListEntry },
          { perPage: page.perPage, offset: (page.page - 1) * page.perPage },
        ),
    total(),
  ]);
  return { items: window.items.map(orderFromItem), hasMore: window.hasMore, ...count };
}

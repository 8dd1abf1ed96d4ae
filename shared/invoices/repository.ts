/**
 * Invoices in the single table (keys and access patterns: docs/data-model.md). Reads and lists
 * here; every write is one TransactWriteItems assembled from the item builders of stored.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { requireCustomerAndCursor } from '#shared/customers/repository';
import { dynamo } from '#shared/clients/dynamodb';
import {
  countCollectionUpTo,
  getMany,
  readTotal,
  readWindow,
  type CollectionQuery,
  type PageRequest,
  type Total,
} from '#shared/db/collections';
import { createdSortKey, cursorKeys, dueSortKey, invoiceKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { ConflictError, NotFoundError, VersionConflict } from '#shared/errors';
import { orderFromItem, type OrderRecord } from '#shared/orders/stored';
import { orderKey } from '#shared/orders/transitions';
import type { InvoiceStatus } from './status';
import { INVOICES, invoiceFromItem, invoiceStatusCounter, invoiceUpdate, type InvoiceRecord } from './stored';

export async function readInvoice(tenant: Tenant, id: number, consistent = false): Promise<InvoiceRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: invoiceKeys.invoice(tenant, id), ConsistentRead: consistent }),
  );
  return result.Item ? invoiceFromItem(result.Item) : undefined;
}

export async function requireInvoice(tenant: Tenant, id: number, consistent = false): Promise<InvoiceRecord> {
  const invoice = await readInvoice(tenant, id, consistent);
  if (!invoice) throw new NotFoundError('invoice', id);
  return invoice;
}

/**
 * The order to invoice and its mark of an invoice that is not void, if any (one BatchGetItem, strongly
 * consistent: an order confirmed or invoiced a moment ago must be seen as it is). 404 without the order.
 */
export async function readOrderToInvoice(
  tenant: Tenant,
  orderId: number,
): Promise<{ order: OrderRecord; marked: { id: number; invoice_number: string } | undefined }> {
  const orderItemKey = orderKey(tenant, orderId);
  const items = await getMany([orderItemKey, invoiceKeys.orderInvoice(tenant, orderId)], { consistent: true });
  const orderItem = items.find((item) => item.sk === orderItemKey.sk);
  if (!orderItem) throw new NotFoundError('order', orderId);
  const mark = items.find((item) => item.sk !== orderItemKey.sk);
  return {
    order: orderFromItem(orderItem),
    marked: mark ? { id: Number(mark.invoice_id), invoice_number: String(mark.invoice_number) } : undefined,
  };
}

/** A customer's invoices paged by cursor: the customer (404) and the cursor invoice (422), one BatchGetItem. */
export function requireCustomerAndCursorInvoice(
  tenant: Tenant,
  customerId: number,
  id: number | undefined,
): Promise<InvoiceRecord | undefined> {
  return requireCustomerAndCursor(
    tenant,
    customerId,
    id === undefined ? undefined : { id, resource: 'invoice', key: invoiceKeys.invoice(tenant, id), read: invoiceFromItem },
  );
}

/**
 * Writes `after` over `before` (conditional on the version read: a concurrent change makes this a
 * VersionConflict, and the service reads again), with the extra items of the change (an event,
 * the order mark's removal).
 */
export async function saveInvoice(tenant: Tenant, before: InvoiceRecord, after: InvoiceRecord, extra: TransactItem[] = []): Promise<void> {
  const [update, ...moves] = invoiceUpdate(tenant, before, after);
  await transactWrite([
    { item: update!, onConditionFailure: () => new VersionConflict('invoice') },
    ...moves,
    ...extra.map((item) => ({ item, onConditionFailure: () => new ConflictError('The order no longer has this invoice') })),
  ]);
}

// ---- Lists ------------------------------------------------------------------------------------

export interface InvoiceFilter {
  status?: InvoiceStatus;
  customerId?: number;
  orderId?: number;
  /** YYYY-MM-DD, exclusive. */
  dueBefore?: string;
  /** YYYY-MM-DD: only unpaid invoices due before this day (overdue as of it). */
  unpaidDueBefore?: string;
}

type InvoicePage = { items: InvoiceRecord[]; hasMore: boolean } & Total;

/** A list request: a page number, or the invoices after `after` (a cursor: the invoice named by `starting_after`). */
export interface InvoicePageRequest extends PageRequest {
  after?: InvoiceRecord;
}

/** An order has few invoices (one that is not void at a time): its list is read whole, up to this many. */
const MAX_ORDER_INVOICES = 100;

/**
 * Each filter is one index partition: all and one status through the invoice items (newest
 * first, totals from counters); a customer's (and of one status) and an order's through list
 * entries; by due date (earliest first) through the due and unpaid entries, bounded by a sort-key
 * range. An order's invoices with a status are filtered in memory (an order has a handful).
 * Which combinations exist is the schema's and the service's business (docs/invoices.md). A
 * cursor starts the Query after the cursor invoice's place in the list (its sort key there: its
 * creation, or its due date in the lists by due date), so a page reads its own keys (+ one).
 */
export async function listInvoices(tenant: Tenant, filter: InvoiceFilter, page: InvoicePageRequest): Promise<InvoicePage> {
  const entries = { itemKey: invoiceKeys.invoiceOfListEntry };
  const { after } = page;
  const offset = (page.page - 1) * page.perPage;
  if (filter.orderId !== undefined) {
    const window = await readWindow(
      { index: 'gsi1', partition: invoiceKeys.ofOrder(tenant, filter.orderId), newestFirst: true, ...entries },
      { perPage: MAX_ORDER_INVOICES },
    );
    const all = window.items.map(invoiceFromItem).filter((invoice) => !filter.status || invoice.status === filter.status);
    // Read whole: a cursor keeps the invoices created before it (newest first), wherever it sorts.
    const cursor = after && createdSortKey(after.created_at, after.id);
    const rest = cursor === undefined ? all : all.filter((invoice) => createdSortKey(invoice.created_at, invoice.id) < cursor);
    return {
      items: rest.slice(offset, offset + page.perPage),
      hasMore: offset + page.perPage < rest.length,
      total: all.length,
      capped: window.hasMore,
    };
  }
  let query: CollectionQuery;
  let counter: string | undefined;
  // The table keys a cursor starts after: the invoice item's, or the list entry's the list reads.
  let entry: 'CUSTOMER' | 'DUE' | 'UNPAID' | undefined;
  const byDue = filter.unpaidDueBefore !== undefined || filter.dueBefore !== undefined;
  if (byDue) {
    const bound = [filter.dueBefore, filter.unpaidDueBefore].filter((day): day is string => day !== undefined).sort()[0]!;
    // Sort keys are `<due date>#<created>#<id>`: everything below the bare date is due before it.
    query = {
      index: 'gsi1',
      partition: filter.unpaidDueBefore !== undefined ? invoiceKeys.unpaidByDueDate(tenant) : invoiceKeys.byDueDate(tenant),
      sortKeyBetween: ['0', bound],
      newestFirst: false,
      ...entries,
    };
    entry = filter.unpaidDueBefore !== undefined ? 'UNPAID' : 'DUE';
  } else if (filter.customerId !== undefined) {
    query = filter.status
      ? {
          index: 'gsi2',
          partition: invoiceKeys.ofCustomerByStatus(tenant, filter.customerId, filter.status),
          newestFirst: true,
          ...entries,
        }
      : { index: 'gsi1', partition: invoiceKeys.ofCustomer(tenant, filter.customerId), newestFirst: true, ...entries };
    entry = 'CUSTOMER';
  } else {
    query = filter.status
      ? { index: 'gsi2', partition: invoiceKeys.byStatus(tenant, filter.status), newestFirst: true }
      : { index: 'gsi1', partition: invoiceKeys.collection(tenant), newestFirst: true };
    counter = filter.status ? invoiceStatusCounter(filter.status) : INVOICES;
  }
  const total = async (): Promise<Total> =>
    counter === undefined ? countCollectionUpTo(query) : { total: await readTotal(tenant, counter), capped: false };
  const startAfter =
    after &&
    cursorKeys.invoice(tenant, after.id, {
      index: query.index,
      partition: query.partition,
      sortKey: byDue ? dueSortKey(after.due_date, after.created_at, after.id) : createdSortKey(after.created_at, after.id),
      entry,
    });
  const [window, count] = await Promise.all([readWindow(query, { perPage: page.perPage, offset, startAfter }), total()]);
  return { items: window.items.map(invoiceFromItem), hasMore: window.hasMore, ...count };
}

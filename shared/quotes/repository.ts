/**
 * Quotes in the single table (keys and access patterns: docs/data-model.md). Reads and lists here;
 * every write is one TransactWriteItems assembled from the item builders of stored.ts (and, to
 * accept, the order's of shared/orders/stored.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { requireCustomerAndCursor } from '#shared/customers/repository';
import { dynamo } from '#shared/clients/dynamodb';
import { countCollectionUpTo, readTotal, readWindow, type CollectionQuery, type PageRequest, type Total } from '#shared/db/collections';
import { createdSortKey, cursorKeys, dueSortKey, quoteKeys } from '#shared/db/keys';
import { tableName, type TransactItem, type TransactionPart } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { NotFoundError, VersionConflict } from '#shared/errors';
import type { StoredQuoteStatus } from './status';
import { QUOTES, quoteFromItem, quoteStatusCounter, quoteUpdate, type QuoteRecord } from './stored';

export async function readQuote(tenant: Tenant, id: number, consistent = false): Promise<QuoteRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: quoteKeys.quote(tenant, id), ConsistentRead: consistent }),
  );
  return result.Item ? quoteFromItem(result.Item) : undefined;
}

export async function requireQuote(tenant: Tenant, id: number, consistent = false): Promise<QuoteRecord> {
  const quote = await readQuote(tenant, id, consistent);
  if (!quote) throw new NotFoundError('quote', id);
  return quote;
}

/** A customer's quotes paged by cursor: the customer (404) and the cursor quote (422), one BatchGetItem. */
export function requireCustomerAndCursorQuote(
  tenant: Tenant,
  customerId: number,
  id: number | undefined,
): Promise<QuoteRecord | undefined> {
  return requireCustomerAndCursor(
    tenant,
    customerId,
    id === undefined ? undefined : { id, resource: 'quote', key: quoteKeys.quote(tenant, id), read: quoteFromItem },
  );
}

/**
 * Writes `after` over `before`, conditional on the version read and on the quote being open (a
 * concurrent change or acceptance makes it a VersionConflict: the service reads again and decides
 * again), with the extra parts of the change (events; to accept, the whole new order).
 */
export async function saveQuote(
  tenant: Tenant,
  before: QuoteRecord,
  after: QuoteRecord,
  extra: (TransactItem | TransactionPart)[] = [],
): Promise<void> {
  const [update, ...moves] = quoteUpdate(tenant, before, after);
  await transactWrite([{ item: update!, onConditionFailure: () => new VersionConflict('quote') }, ...moves, ...extra]);
}

// ---- Lists ------------------------------------------------------------------------------------

export interface QuoteFilter {
  /** A stored status; `open` with `validFrom` / `validBefore` for the open and the expired ones. */
  status?: StoredQuoteStatus;
  /** YYYY-MM-DD: open quotes valid on this day or later (not expired). */
  validFrom?: string;
  /** YYYY-MM-DD: open quotes whose validity ended before this day (expired). */
  validBefore?: string;
  customerId?: number;
  /** ISO times, inclusive (lists by creation only). */
  from?: string;
  to?: string;
}

/** A list request: a page number, or the quotes after `after` (a cursor: the quote named by `starting_after`). */
export interface QuotePageRequest extends PageRequest {
  after?: QuoteRecord;
}

/** Below every ISO time / date sort key, and above every one. */
const LOWEST = '0';
const HIGHEST = '9';

/**
 * Each filter combination is one index partition: all quotes and one status through the quote
 * items, a customer's through its entries. Open quotes are sorted by validity, so "open" and
 * "expired" are two sort-key ranges of the open partition; the others (and all quotes) are sorted
 * by creation, so a creation range is a sort-key range. Totals: the counters for all quotes and per
 * stored status; counted on the keys-only index up to TOTAL_CAP otherwise. A cursor starts the
 * Query after the cursor quote's place in the list read — its validity in the open partition
 * (open and expired), its creation in the others — whatever its status is now.
 */
export async function listQuotes(
  tenant: Tenant,
  filter: QuoteFilter,
  page: QuotePageRequest,
): Promise<{ items: QuoteRecord[]; hasMore: boolean } & Total> {
  const entries = { itemKey: quoteKeys.quoteOfListEntry };
  const { status, customerId } = filter;
  const query: CollectionQuery =
    customerId === undefined
      ? status
        ? { index: 'gsi2', partition: quoteKeys.byStatus(tenant, status), newestFirst: status !== 'open' }
        : { index: 'gsi1', partition: quoteKeys.collection(tenant), newestFirst: true }
      : status
        ? { index: 'gsi2', partition: quoteKeys.ofCustomerByStatus(tenant, customerId, status), newestFirst: status !== 'open', ...entries }
        : { index: 'gsi1', partition: quoteKeys.ofCustomer(tenant, customerId), newestFirst: true, ...entries };
  let ranged = false;
  if (filter.validFrom !== undefined || filter.validBefore !== undefined) {
    // Sort keys `<valid_until>#<created>#<id>`: a bare date sorts before every key of its own day.
    query.sortKeyBetween = [filter.validFrom ?? LOWEST, filter.validBefore ?? HIGHEST];
    ranged = true;
  } else if (filter.from !== undefined || filter.to !== undefined) {
    query.sortKeyBetween = [filter.from ?? LOWEST, `${filter.to ?? HIGHEST}~`];
    ranged = true;
  }
  const counter = customerId === undefined && !ranged ? (status ? quoteStatusCounter(status) : QUOTES) : undefined;
  const total = async (): Promise<Total> =>
    counter === undefined ? countCollectionUpTo(query) : { total: await readTotal(tenant, counter), capped: false };
  const { after } = page;
  // The open partition (gsi2) sorts by validity; every other list by creation.
  const byValidity = query.index === 'gsi2' && status === 'open';
  const startAfter =
    after &&
    cursorKeys.quote(tenant, after.id, {
      index: query.index,
      partition: query.partition,
      sortKey: byValidity ? dueSortKey(after.valid_until, after.created_at, after.id) : createdSortKey(after.created_at, after.id),
      entry: customerId !== undefined,
    });
  const [window, count] = await Promise.all([
    readWindow(query, { perPage: page.perPage, offset: (page.page - 1) * page.perPage, startAfter }),
    total(),
  ]);
  return { items: window.items.map(quoteFromItem), hasMore: window.hasMore, ...count };
}

/**
 * Products in the single table: the product item plus two list entries (stored.ts), list totals
 * as counters in the same transaction, every change conditional on the product's version.
 * Access patterns are listed in docs/data-model.md.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
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
import { adjustTotal } from '#shared/db/totals';
import { createdSortKey, cursorKeys, nameSortKey, tenantKeys, type ProductListState } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { versionedDelete, versionedUpdate } from '#shared/db/update-expression';
import { NotFoundError, VersionConflict } from '#shared/errors';
import {
  PRODUCTS,
  countersOf,
  listEntryDeletes,
  listEntryPuts,
  listingChanged,
  productChanges,
  productFromItem,
  productPut,
  stockAttributes,
  type ProductRecord,
  type StockState,
} from './stored';

const versionMoved = () => new VersionConflict('product');

export async function insertProduct(tenant: Tenant, record: ProductRecord): Promise<void> {
  await transactWrite([
    productPut(tenant, record),
    ...listEntryPuts(tenant, record),
    ...countersOf(record).map((counter) => adjustTotal(tenant, counter, 1)),
  ]);
}

export async function readProduct(tenant: Tenant, id: number): Promise<ProductRecord | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.product(tenant, id) }));
  return result.Item ? productFromItem(result.Item) : undefined;
}

export async function requireProduct(tenant: Tenant, id: number): Promise<ProductRecord> {
  const product = await readProduct(tenant, id);
  if (!product) throw new NotFoundError('product', id);
  return product;
}

/**
 * Products by id, strongly consistent (an order placed right after a product was created or its
 * stock changed must see it). One BatchGetItem.
 */
export async function readProducts(tenant: Tenant, ids: Iterable<number>): Promise<Map<number, ProductRecord>> {
  const items = await getMany(
    [...new Set(ids)].map((id) => tenantKeys.product(tenant, id)),
    { consistent: true },
  );
  return new Map(items.map((item) => [Number(item.id), productFromItem(item)]));
}

/** +1 for counters the product enters, −1 for those it leaves. */
function counterMoves(tenant: Tenant, before: ProductRecord, after: ProductRecord): TransactItem[] {
  const old = new Set(countersOf(before));
  const now = new Set(countersOf(after));
  return [
    ...[...old].filter((counter) => !now.has(counter)).map((counter) => adjustTotal(tenant, counter, -1)),
    ...[...now].filter((counter) => !old.has(counter)).map((counter) => adjustTotal(tenant, counter, 1)),
  ];
}

/**
 * Writes the product's own attributes conditional on the version read. Stock attributes are
 * written only for the stock fields the caller sent (`stock`), so a concurrent order's decrement
 * is never overwritten by an edit of, say, the name.
 */
export async function saveProduct(
  tenant: Tenant,
  before: ProductRecord,
  after: ProductRecord,
  stock: Partial<StockState> = {},
): Promise<void> {
  const update = versionedUpdate(
    tenantKeys.product(tenant, before.id),
    { ...productChanges(tenant, after), ...stockAttributes(stock) },
    before.version,
  );
  const listing = listingChanged(before, after) ? [...listEntryPuts(tenant, after), ...counterMoves(tenant, before, after)] : [];
  await transactWrite([{ item: update, onConditionFailure: versionMoved }, ...listing]);
}

/**
 * Deletes the product, its list entries and its counts — only while no order references it
 * (a database condition on `order_refs`, which the orders slice keeps in its own transactions).
 */
export async function deleteProduct(tenant: Tenant, record: ProductRecord): Promise<void> {
  const remove = versionedDelete(tenantKeys.product(tenant, record.id), record.version, 'order_refs');
  await transactWrite([
    { item: remove, onConditionFailure: versionMoved },
    ...listEntryDeletes(tenant, record.id),
    ...countersOf(record).map((counter) => adjustTotal(tenant, counter, -1)),
  ]);
}

export interface ProductFilter {
  state: ProductListState;
  category?: string;
  q?: string;
}

/** A list request: a page number, or the products after `after` (a cursor: the product named by `starting_after`). */
export interface ProductPageRequest extends PageRequest {
  after?: ProductRecord;
}

/**
 * Every filter combination is one Query on one index partition (see docs/decisions.md):
 * category (± q) and q alone read name-ordered list entries; otherwise products newest first.
 * Totals come from counters, or a keys-only count when a name prefix is involved. A cursor starts
 * the Query after the cursor product's place in the list (its sort key there, from the product
 * read by the caller), so a page reads its own keys (+ one) however deep it is.
 */
export async function listProducts(
  tenant: Tenant,
  filter: ProductFilter,
  page: ProductPageRequest,
): Promise<{ items: ProductRecord[]; hasMore: boolean } & Total> {
  const index = filter.state === 'all' ? 'gsi1' : 'gsi2';
  const prefix = filter.q?.toLowerCase();
  let query: CollectionQuery;
  let counter: string | undefined;
  let ordering: 'BY_NAME' | 'BY_CATEGORY' | undefined;
  if (filter.category !== undefined) {
    query = {
      index,
      partition: tenantKeys.productsByCategory(tenant, filter.state, filter.category),
      sortKeyPrefix: prefix,
      newestFirst: false,
    };
    counter = prefix === undefined ? `${PRODUCTS}:category:${filter.state}:${filter.category.toLowerCase()}` : undefined;
    ordering = 'BY_CATEGORY';
  } else if (prefix !== undefined) {
    query = { index, partition: tenantKeys.productsByName(tenant, filter.state), sortKeyPrefix: prefix, newestFirst: false };
    ordering = 'BY_NAME';
  } else {
    query = { index, partition: tenantKeys.productsCollection(tenant, filter.state), newestFirst: true };
    counter = filter.state === 'all' ? PRODUCTS : `${PRODUCTS}:${filter.state}`;
  }
  const { after } = page;
  const startAfter =
    after &&
    cursorKeys.product(tenant, after.id, {
      index,
      partition: query.partition,
      sortKey: ordering === undefined ? createdSortKey(after.created_at, after.id) : nameSortKey(after.name, after.id),
      ordering,
    });
  // A name prefix has no counter: its total is counted on the keys-only index, up to a cap.
  const [window, total] = await Promise.all([
    readWindow(
      { ...query, itemKey: tenantKeys.productOfListEntry },
      { perPage: page.perPage, offset: (page.page - 1) * page.perPage, startAfter },
    ),
    counter === undefined ? countCollectionUpTo(query) : readTotal(tenant, counter).then((count) => ({ total: count, capped: false })),
  ]);
  return { items: window.items.map(productFromItem), hasMore: window.hasMore, ...total };
}

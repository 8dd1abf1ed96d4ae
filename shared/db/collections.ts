import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys, type ItemKey } from './keys';
import { batchGet, keyId } from './batch';
import { countUpTo, queryAll, queryPages } from './query';
import { tableName } from './table';

export interface PageRequest {
  page: number;
  perPage: number;
}

/**
 * Totals that have no counter item (name-prefix searches, date ranges, delivery history) are
 * counted on the keys-only index, but never further than this: a count reads at most this many
 * small key records, however large the collection. Beyond it the total is reported as capped (a
 * lower bound), docs/platform.md.
 */
export const TOTAL_CAP = 1000;

/** A list total: exact, or — when `capped` — the first TOTAL_CAP and more exist. */
export interface Total {
  total: number;
  capped: boolean;
}

export interface CollectionQuery {
  index: 'gsi1' | 'gsi2';
  partition: string;
  /** Optional `begins_with` on the index sort key (name prefix search). */
  sortKeyPrefix?: string;
  /** Optional inclusive range on the index sort key (date filters). */
  sortKeyBetween?: [string, string];
  newestFirst: boolean;
  /** Maps an index entry to the item to fetch, for entries that stand in for another item (product list entries). */
  itemKey?: (entry: ItemKey) => ItemKey;
}

type Item = Record<string, unknown>;

/** Reads a collection's total from its counter item (kept in the same transaction as creates/deletes). */
export async function readTotal(tenant: Tenant, collection: string): Promise<number> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.total(tenant, collection) }));
  return Number(result.Item?.total ?? 0);
}

function keyCondition(
  query: CollectionQuery,
): Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const pkName = `${query.index}pk`;
  const skName = `${query.index}sk`;
  const names: Record<string, string> = { '#pk': pkName };
  const values: Record<string, unknown> = { ':pk': query.partition };
  let expression = '#pk = :pk';
  if (query.sortKeyPrefix !== undefined) {
    names['#sk'] = skName;
    values[':prefix'] = query.sortKeyPrefix;
    expression += ' AND begins_with(#sk, :prefix)';
  } else if (query.sortKeyBetween) {
    names['#sk'] = skName;
    values[':from'] = query.sortKeyBetween[0];
    values[':to'] = query.sortKeyBetween[1];
    expression += ' AND #sk BETWEEN :from AND :to';
  }
  return { KeyConditionExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/**
 * Counts the members of a filtered collection on its KEYS_ONLY index (used where no counter
 * item exists, e.g. a name-prefix search), up to TOTAL_CAP: reads at most TOTAL_CAP + 1 key
 * records, never full items. `capped`: there are more than TOTAL_CAP (then `total` is TOTAL_CAP).
 * With `keep` (a filter on the key records), counts the accepted ones among the first `cap` entries
 * — `capped` then says more entries exist beyond those, so the count is a lower bound.
 */
export async function countCollectionUpTo(query: CollectionQuery, cap = TOTAL_CAP, keep?: (entry: Item) => boolean): Promise<Total> {
  // In the list's order: with `keep`, the first `cap` entries of the list are the ones counted.
  const input = { IndexName: query.index, ScanIndexForward: !query.newestFirst, ...keyCondition(query) };
  if (!keep) {
    const { count, capped } = await countUpTo(input, cap);
    return { total: count, capped };
  }
  let examined = 0;
  let total = 0;
  for await (const page of queryPages(input, { max: cap + 1 })) {
    for (const entry of page.items) if (++examined <= cap && keep(entry)) total++;
  }
  return { total, capped: examined > cap };
}

export interface WindowRequest {
  perPage: number;
  /** Entries to skip first (page numbers: `(page − 1) × perPage`); they are read as keys only. */
  offset?: number;
  /** Start after this index position (all four key attributes of an entry: the index's and the table's). */
  startAfter?: Record<string, unknown>;
  /**
   * Keeps only the entries this accepts (a filter on the key records, e.g. the event kind in a
   * delivery's index sort key). With it, at most `maxExamined` entries are read per request; a
   * window that ends there may be short, and `next` says where to go on.
   */
  keep?: (entry: Item) => boolean;
  /** Default MAX_EXAMINED. */
  maxExamined?: number;
}

export interface Window {
  /** The window's items (fetched with one BatchGetItem), in the index's order. */
  items: Item[];
  /** More entries may follow (for sure without `keep`; with it, the examination stopped early). */
  hasMore: boolean;
  /** The index entry the next window starts after (the window's last, or the last one examined); undefined at the end. */
  next: Item | undefined;
}

/**
 * With a `keep` filter a request's first Query asks for at least this many keys, and each further
 * one for twice as many as the one before: 200, 400, 800, 1,600, … — five Query calls at most reach
 * MAX_EXAMINED, and a dense filter stops after the first.
 */
const EXAMINE_CHUNK = 200;
/** With a `keep` filter, the key records one request examines by default: well under 1 MB, at most five Query calls. */
export const MAX_EXAMINED = 5000;

/**
 * A window of a collection: `perPage` entries after skipping `offset` or after `startAfter`, and
 * whether more follow — one entry beyond the window is read to know. Without `keep`, reads
 * `offset + perPage + 1` key records and `perPage` items; with it, at most `maxExamined` key
 * records. Only the window's items are fetched (one BatchGetItem).
 */
export async function readWindow(query: CollectionQuery, request: WindowRequest): Promise<Window> {
  const { perPage, offset = 0, keep } = request;
  const from = request.startAfter && startPosition(query, request.startAfter);
  if (from === 'past') return { items: [], hasMore: false, next: undefined };
  const startAfter = from === 'within' ? request.startAfter : undefined;
  const wanted = offset + perPage + 1;
  const input = { IndexName: query.index, ScanIndexForward: !query.newestFirst, ...keyCondition(query) };
  const kept: Item[] = [];
  let lastExamined: Item | undefined;
  let exhausted = true;
  const pages = keep
    ? queryPages(
        { ...input, Limit: Math.max(wanted, EXAMINE_CHUNK) },
        { maxScanned: request.maxExamined ?? MAX_EXAMINED, startAfter, limitGrowth: 2 },
      )
    : queryPages(input, { max: wanted, startAfter });
  for await (const page of pages) {
    for (const entry of page.items) {
      lastExamined = entry;
      if (!keep || keep(entry)) kept.push(entry);
      if (kept.length >= wanted) break;
    }
    exhausted = page.lastKey === undefined;
    if (kept.length >= wanted) break;
  }
  const entries = kept.slice(offset, offset + perPage);
  const full = kept.length >= wanted;
  // With a filter the examination may stop before the window is full: go on after the last key examined.
  const next = full ? entries.at(-1) : !exhausted && keep ? lastExamined : undefined;
  const keys = entries.map((entry): ItemKey => ({ pk: String(entry.pk), sk: String(entry.sk) }));
  const items = await getMany(query.itemKey ? keys.map((key) => query.itemKey!(key)) : keys);
  return { items, hasMore: next !== undefined, next };
}

/** Orders strings as DynamoDB orders sort keys: by their UTF-8 bytes. */
const compareKeys = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * Where a start position (`startAfter`) lies against the query's sort-key condition, in the list's
 * order: `within` it (a Query may start there), `before` every entry it admits (the list starts at
 * its beginning) or `past` them all (nothing follows). A cursor entry that no longer matches the
 * condition — a product renamed out of the name prefix searched — still has a place in the order,
 * and DynamoDB refuses an `ExclusiveStartKey` outside the key condition.
 */
export function startPosition(query: CollectionQuery, startAfter: Record<string, unknown>): 'before' | 'within' | 'past' {
  const sortKey = startAfter[`${query.index}sk`];
  if (typeof sortKey !== 'string') return 'within';
  // Ascending: below the condition's range is before it, above is past it; descending the other way round.
  const below = query.newestFirst ? 'past' : 'before';
  const above = query.newestFirst ? 'before' : 'past';
  if (query.sortKeyPrefix !== undefined) {
    if (sortKey.startsWith(query.sortKeyPrefix)) return 'within';
    // Not starting with the prefix, a key sorts either below every key that does or above them all.
    return compareKeys(sortKey, query.sortKeyPrefix) < 0 ? below : above;
  }
  if (query.sortKeyBetween) {
    if (compareKeys(sortKey, query.sortKeyBetween[0]) < 0) return below;
    if (compareKeys(sortKey, query.sortKeyBetween[1]) > 0) return above;
  }
  return 'within';
}

/**
 * The items at `keys` (BatchGetItem, 100 keys a call), in the order of `keys`, missing ones
 * dropped. `consistent` asks for strongly consistent reads (stock checks before a write).
 */
export async function getMany(keys: ItemKey[], options: { consistent?: boolean } = {}): Promise<Item[]> {
  const found = await batchGet(keys, options);
  return keys.map((key) => found.get(keyId(key))).filter((item): item is Item => item !== undefined);
}

/**
 * A window over several sort-key ranges of one index partition, read one after the other as if
 * they were one list (the jobs due before a date: one range per priority, in queue order). Reads
 * `offset + perPage + 1` key records at most, over as many Query calls as ranges it reaches, and
 * the window's items with one BatchGetItem. With `startAfter` the ranges the position lies past
 * are left out without a read, the one it lies within starts after it, and the later ones are
 * read from their beginning: the ranges must be in the list's order and must not overlap.
 */
export async function readWindowOfRanges(
  query: CollectionQuery,
  ranges: readonly [string, string][],
  request: Pick<WindowRequest, 'perPage' | 'offset' | 'startAfter'>,
): Promise<Omit<Window, 'next'>> {
  const wanted = (request.offset ?? 0) + request.perPage + 1;
  const entries: Item[] = [];
  for (const range of ranges) {
    if (entries.length >= wanted) break;
    const ranged: CollectionQuery = { ...query, sortKeyBetween: range };
    const from = request.startAfter ? startPosition(ranged, request.startAfter) : 'before';
    if (from === 'past') continue;
    const input = { IndexName: query.index, ScanIndexForward: !query.newestFirst, ...keyCondition(ranged) };
    const startAfter = from === 'within' ? request.startAfter : undefined;
    entries.push(...(await queryAll(input, { max: wanted - entries.length, startAfter })));
  }
  const window = entries.slice(request.offset ?? 0, (request.offset ?? 0) + request.perPage);
  const keys = window.map((entry): ItemKey => ({ pk: String(entry.pk), sk: String(entry.sk) }));
  const items = await getMany(query.itemKey ? keys.map((key) => query.itemKey!(key)) : keys);
  return { items, hasMore: entries.length >= wanted };
}

/** The members of several sort-key ranges of one partition, counted on the keys-only index up to `cap` in all. */
export async function countRangesUpTo(query: CollectionQuery, ranges: readonly [string, string][], cap = TOTAL_CAP): Promise<Total> {
  let total = 0;
  for (const range of ranges) {
    const counted = await countCollectionUpTo({ ...query, sortKeyBetween: range }, cap - total);
    total += counted.total;
    // A range that reaches the cap says so; the next range, counted up to 0, still says whether more exist.
    if (counted.capped) return { total, capped: true };
  }
  return { total, capped: false };
}

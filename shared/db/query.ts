/**
 * Queries that span pages: the one loop over `LastEvaluatedKey` in the code. DynamoDB answers a
 * Query with at most 1 MB (or `Limit` items) at a time; these helpers ask again from where the
 * last answer stopped, until the partition (or the wanted number of items) is exhausted.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import { tableName } from './table';

type Item = Record<string, unknown>;
export type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>;

export interface QueryPage {
  items: Item[];
  /** Items matching (after a filter expression; with `Select: COUNT` the only answer). */
  count: number;
  /** Items DynamoDB read for this page (before a filter expression): what the read costs. */
  scanned: number;
  /** Where this page stopped (`LastEvaluatedKey`): the position to go on from; undefined at the end. */
  lastKey: Item | undefined;
}

export interface QueryOptions {
  /** Stop once this many items were yielded; each page asks for no more than are still wanted (`Limit`). */
  max?: number;
  /**
   * Stop once DynamoDB has read this many items (before a filter expression): bounds what a
   * filtered read costs however few items match. Each page's `Limit` is what remains of it.
   */
  maxScanned?: number;
  /** Start after this position (a `lastKey` of an earlier page, or the key of an item of the query). */
  startAfter?: Item;
  /**
   * Each page asks for this many times the previous page's `Limit`: a read filtered in memory
   * starts small (a dense filter fills its page at once) and reaches a large bound in a few calls.
   */
  limitGrowth?: number;
}

/**
 * The query's answers, one page at a time. With `max`, stops once that many items were yielded,
 * and asks each page for no more than are still wanted (`Limit`), so nothing beyond is read.
 * Without a filter expression `max` and `maxScanned` are the same bound; with one, `maxScanned`
 * is the one that bounds the work.
 */
export async function* queryPages(input: QueryInput, options: QueryOptions = {}): AsyncGenerator<QueryPage> {
  let startKey: Item | undefined = options.startAfter;
  let seen = 0;
  let scanned = 0;
  let limit = input.Limit ?? Infinity;
  do {
    const wanted = Math.min(
      limit,
      options.max === undefined ? Infinity : options.max - seen,
      options.maxScanned === undefined ? Infinity : options.maxScanned - scanned,
    );
    if (wanted <= 0) return;
    const result = await dynamo().send(
      new QueryCommand({
        ...input,
        TableName: tableName(),
        ExclusiveStartKey: startKey,
        ...(wanted === Infinity ? {} : { Limit: wanted }),
      }),
    );
    const items = result.Items ?? [];
    seen += items.length;
    scanned += result.ScannedCount ?? items.length;
    startKey = result.LastEvaluatedKey;
    if (options.limitGrowth) limit *= options.limitGrowth;
    yield { items, count: result.Count ?? items.length, scanned: result.ScannedCount ?? items.length, lastKey: startKey };
  } while (
    startKey &&
    (options.max === undefined || seen < options.max) &&
    (options.maxScanned === undefined || scanned < options.maxScanned)
  );
}

/** Every item the query matches (at most `max`; after `startAfter` when given), in the query's order. */
export async function queryAll(input: QueryInput, options: Pick<QueryOptions, 'max' | 'startAfter'> = {}): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of queryPages(input, options)) items.push(...page.items);
  return options.max === undefined ? items : items.slice(0, options.max);
}

/**
 * How many items the query matches, counted by DynamoDB (`Select: COUNT`: no item is returned).
 * Unbounded: only for partitions that are small by construction (and for tests).
 */
export async function countAll(input: QueryInput): Promise<number> {
  let count = 0;
  for await (const page of queryPages({ ...input, Select: 'COUNT' })) count += page.count;
  return count;
}

/**
 * How many items the query matches, counting no further than `cap`: DynamoDB reads at most
 * `cap + 1` items, so the work is bounded however large the collection is. `capped` says there
 * are more than `cap` (then `count` is `cap`, a lower bound). Without a filter expression.
 */
export async function countUpTo(input: QueryInput, cap: number): Promise<{ count: number; capped: boolean }> {
  let count = 0;
  for await (const page of queryPages({ ...input, Select: 'COUNT' }, { maxScanned: cap + 1 })) count += page.count;
  return { count: Math.min(count, cap), capped: count > cap };
}

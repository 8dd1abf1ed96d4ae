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

/**
 * The query's answers, one page at a time. With `max`, stops once that many items were yielded,
 * and asks each page for no more than are still wanted (`Limit`), so nothing beyond is read.
 */
export async function* queryPages(input: QueryInput, options: { max?: number } = {}): AsyncGenerator<{ items: Item[]; count: number }> {
  let startKey: Record<string, unknown> | undefined;
  let seen = 0;
  do {
    const limit = options.max === undefined ? input.Limit : Math.min(input.Limit ?? Infinity, options.max - seen);
    const result = await dynamo().send(
      new QueryCommand({
        ...input,
        TableName: tableName(),
        ExclusiveStartKey: startKey,
        ...(limit === undefined || limit === Infinity ? {} : { Limit: limit }),
      }),
    );
    const items = result.Items ?? [];
    seen += items.length;
    yield { items, count: result.Count ?? items.length };
    startKey = result.LastEvaluatedKey;
  } while (startKey && (options.max === undefined || seen < options.max));
}

/** Every item the query matches (at most `max`), in the query's order. */
export async function queryAll(input: QueryInput, options: { max?: number } = {}): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of queryPages(input, options)) items.push(...page.items);
  return options.max === undefined ? items : items.slice(0, options.max);
}

/** How many items the query matches, counted by DynamoDB (`Select: COUNT`: no item is returned). */
export async function countAll(input: QueryInput): Promise<number> {
  let count = 0;
  for await (const page of queryPages({ ...input, Select: 'COUNT' })) count += page.count;
  return count;
}

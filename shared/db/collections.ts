import { BatchGetCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys, type ItemKey } from './keys';
import { tableName } from './table';

export interface PageRequest {
  page: number;
  perPage: number;
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

function keyCondition(query: CollectionQuery): Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
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
 * item exists, e.g. a name-prefix search). Reads keys only, never full items.
 */
export async function countCollection(query: CollectionQuery): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo().send(
      new QueryCommand({ TableName: tableName(), IndexName: query.index, Select: 'COUNT', ExclusiveStartKey: startKey, ...keyCondition(query) }),
    );
    count += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/**
 * Page-number pagination over a collection index. The indexes are KEYS_ONLY, so skipping to a
 * deep page reads only small key records; the page itself is then fetched with one BatchGet.
 */
export async function readPage(query: CollectionQuery, { page, perPage }: PageRequest): Promise<Item[]> {
  const offset = (page - 1) * perPage;
  const wanted = offset + perPage;
  const keys: ItemKey[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: query.index,
        ScanIndexForward: !query.newestFirst,
        Limit: wanted - keys.length,
        ExclusiveStartKey: startKey,
        ...keyCondition(query),
      }),
    );
    for (const item of result.Items ?? []) keys.push({ pk: String(item.pk), sk: String(item.sk) });
    startKey = result.LastEvaluatedKey;
  } while (startKey && keys.length < wanted);
  const window = keys.slice(offset, wanted);
  return getMany(query.itemKey ? window.map((key) => query.itemKey!(key)) : window);
}

/**
 * BatchGet of up to 100 keys, retrying unprocessed keys, returned in the order of `keys` (missing
 * ones dropped). `consistent` asks for strongly consistent reads (stock checks before a write).
 */
export async function getMany(keys: ItemKey[], options: { consistent?: boolean } = {}): Promise<Item[]> {
  if (keys.length === 0) return [];
  const found = new Map<string, Item>();
  let pending: Record<string, unknown>[] | undefined = keys.map((key) => ({ pk: key.pk, sk: key.sk }));
  for (let attempt = 0; pending && pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
    const result = await dynamo().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: options.consistent } } }));
    for (const item of result.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item);
    pending = result.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[] | undefined;
    if (attempt > 8 && pending?.length) throw new Error('BatchGet kept returning unprocessed keys');
  }
  return keys.map((key) => found.get(`${key.pk}|${key.sk}`)).filter((item): item is Item => item !== undefined);
}

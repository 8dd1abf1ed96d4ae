import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys, type ItemKey } from './keys';
import { batchGet, keyId } from './batch';
import { countAll, queryAll } from './query';
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
 * item exists, e.g. a name-prefix search). Reads keys only, never full items.
 */
export const countCollection = (query: CollectionQuery): Promise<number> => countAll({ IndexName: query.index, ...keyCondition(query) });

/**
 * Page-number pagination over a collection index. The indexes are KEYS_ONLY, so skipping to a
 * deep page reads only small key records; the page itself is then fetched with one BatchGet.
 */
export async function readPage(query: CollectionQuery, { page, perPage }: PageRequest): Promise<Item[]> {
  const offset = (page - 1) * perPage;
  const entries = await queryAll(
    { IndexName: query.index, ScanIndexForward: !query.newestFirst, ...keyCondition(query) },
    { max: offset + perPage },
  );
  const window = entries.slice(offset).map((entry): ItemKey => ({ pk: String(entry.pk), sk: String(entry.sk) }));
  return getMany(query.itemKey ? window.map((key) => query.itemKey!(key)) : window);
}

/**
 * The items at `keys` (BatchGetItem, 100 keys a call), in the order of `keys`, missing ones
 * dropped. `consistent` asks for strongly consistent reads (stock checks before a write).
 */
export async function getMany(keys: ItemKey[], options: { consistent?: boolean } = {}): Promise<Item[]> {
  const found = await batchGet(keys, options);
  return keys.map((key) => found.get(keyId(key))).filter((item): item is Item => item !== undefined);
}

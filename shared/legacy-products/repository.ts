/**
 * Legacy products in the single table. The product item carries the option lists derived from
 * its current price table (so GET is one read) and `price_version`, the version of the price
 * items that are live; switching it is one conditional write (prices.ts explains the import).
 * The price items and the records of price versions (stored.ts) are read and written here too.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { readTotal, readWindow, type PageRequest } from '#shared/db/collections';
import { adjustTotal } from '#shared/db/totals';
import { legacyProductKeys } from '#shared/db/keys';
import { isConditionFailure, tableName, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { NotFoundError } from '#shared/errors';
import type { PriceCell } from './price-table';
import {
  LEGACY_PRODUCTS,
  legacyProductFromItem,
  legacyProductPut,
  priceVersionFromItem,
  priceVersionItem,
  type LegacyProductRecord,
  type PriceVersionRecord,
  type PriceVersionShape,
} from './stored';

/** Another import switched the price table first (the condition on price_version failed). */
export class PriceTableChanged extends Error {}
/** The version's bookkeeping item is gone: the import ran so long that it was taken for abandoned. */
export class PriceVersionLost extends Error {}

/**
 * Creates the product, counting it in the total. `pendingVersion` is the price version written
 * beforehand: its bookkeeping item is removed in the same transaction (it is live from now on).
 */
export async function insertLegacyProduct(tenant: Tenant, record: LegacyProductRecord, pendingVersion?: number): Promise<void> {
  const pending = (version: number): TransactItem => ({
    Delete: {
      TableName: tableName(),
      Key: legacyProductKeys.legacyPriceVersion(tenant, record.id, version),
      ConditionExpression: 'attribute_exists(pk)',
    },
  });
  await transactWrite([
    legacyProductPut(tenant, record),
    adjustTotal(tenant, LEGACY_PRODUCTS, 1),
    ...(pendingVersion ? [{ item: pending(pendingVersion), onConditionFailure: () => new PriceVersionLost() }] : []),
  ]);
}

export async function readLegacyProduct(tenant: Tenant, id: number, consistent = false): Promise<LegacyProductRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: legacyProductKeys.legacyProduct(tenant, id), ConsistentRead: consistent }),
  );
  return result.Item ? legacyProductFromItem(result.Item) : undefined;
}

export async function requireLegacyProduct(tenant: Tenant, id: number): Promise<LegacyProductRecord> {
  const record = await readLegacyProduct(tenant, id);
  if (!record) throw new NotFoundError('legacy product', id);
  return record;
}

/**
 * A page of the list, newest first: by number, or after `after` (a cursor: the product named by
 * `starting_after`), where the Query starts at the cursor product's place — its own keys (+ one).
 */
export async function listLegacyProducts(
  tenant: Tenant,
  page: PageRequest & { after?: LegacyProductRecord },
): Promise<{ items: LegacyProductRecord[]; hasMore: boolean; total: number }> {
  const { after } = page;
  const [window, total] = await Promise.all([
    readWindow(
      { index: 'gsi1', partition: legacyProductKeys.legacyProductsCollection(tenant), newestFirst: true },
      {
        perPage: page.perPage,
        offset: (page.page - 1) * page.perPage,
        startAfter: after && legacyProductKeys.listPosition(tenant, after.id, after.created_at),
      },
    ),
    readTotal(tenant, LEGACY_PRODUCTS),
  ]);
  return { items: window.items.map(legacyProductFromItem), hasMore: window.hasMore, total };
}

/** The next price version of a product (an atomic counter on the product item; 404 when it is gone). */
export async function allocatePriceVersion(tenant: Tenant, id: number): Promise<number> {
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: legacyProductKeys.legacyProduct(tenant, id),
        UpdateExpression: 'SET price_version_seq = if_not_exists(price_version_seq, :zero) + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.price_version_seq);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('legacy product', id);
    throw error;
  }
}

/**
 * Makes `after.price_version` live in one transaction: the product's version pointer and option
 * lists change only if no other import switched first; the new version's bookkeeping item must
 * still exist; the previous version is recorded for removal.
 */
export async function switchPriceVersion(
  tenant: Tenant,
  before: LegacyProductRecord,
  after: LegacyProductRecord,
  retireOld: TransactItem | undefined,
): Promise<void> {
  const pointer: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: legacyProductKeys.legacyProduct(tenant, before.id),
      UpdateExpression:
        'SET #version = :version, #formats = :formats, #colors = :colors, #quantities = :quantities, #pages = :pages, #count = :count, #pricesAt = :now, #updatedAt = :now',
      ConditionExpression: '#version = :old',
      ExpressionAttributeNames: {
        '#version': 'price_version',
        '#formats': 'formats',
        '#colors': 'colors',
        '#quantities': 'quantities',
        '#pages': 'pages',
        '#count': 'price_count',
        '#pricesAt': 'prices_updated_at',
        '#updatedAt': 'updated_at',
      },
      ExpressionAttributeValues: {
        ':version': after.price_version,
        ':old': before.price_version,
        ':formats': after.formats,
        ':colors': after.colors,
        ':quantities': after.quantities,
        ':pages': after.pages,
        ':count': after.price_count,
        ':now': after.updated_at,
      },
    },
  };
  const staged: TransactItem = {
    Delete: {
      TableName: tableName(),
      Key: legacyProductKeys.legacyPriceVersion(tenant, before.id, after.price_version),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
  await transactWrite([
    { item: pointer, onConditionFailure: () => new PriceTableChanged() },
    { item: staged, onConditionFailure: () => new PriceVersionLost() },
    ...(retireOld ? [retireOld] : []),
  ]);
}

/** Records version `version` as being written (`writing`), before any of its price items: a crash leaves a trace for cleanup. */
export async function startPriceVersion(
  tenant: Tenant,
  id: number,
  version: number,
  shape: PriceVersionShape,
  now = new Date(),
): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: priceVersionItem(tenant, id, version, 'writing', shape, now),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Marks a version's record `retired` (garbage); fails when the record is gone. */
export async function markPriceVersionRetired(tenant: Tenant, id: number, version: number): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: legacyProductKeys.legacyPriceVersion(tenant, id, version),
      UpdateExpression: 'SET #state = :retired',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':retired': 'retired' },
    }),
  );
}

/** The records of a product's price versions being written or waiting for removal (one Query, strongly consistent). */
export async function readPriceVersions(tenant: Tenant, id: number): Promise<PriceVersionRecord[]> {
  const records = await dynamo().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': legacyProductKeys.legacyProduct(tenant, id).pk,
        ':prefix': legacyProductKeys.legacyPriceVersionPrefix,
      },
      ConsistentRead: true,
    }),
  );
  return (records.Items ?? []).map(priceVersionFromItem);
}

/** The one read of a calculation: the price of one cell of version `version`. */
export async function readPrice(tenant: Tenant, id: number, version: number, cell: PriceCell): Promise<number | undefined> {
  const result = await dynamo().send(
    new GetCommand({
      TableName: tableName(),
      Key: legacyProductKeys.legacyPrice(tenant, id, version, cell),
      ProjectionExpression: 'price',
    }),
  );
  return result.Item ? Number(result.Item.price) : undefined;
}

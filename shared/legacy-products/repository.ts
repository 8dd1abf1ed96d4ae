/**
 * Legacy products in the single table. The product item carries the option lists derived from
 * its current price table (so GET is one read) and `price_version`, the version of the price
 * items that are live; switching it is one conditional write (prices.ts explains the import).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { readPage, readTotal, type PageRequest } from '#shared/db/collections';
import { adjustTotal } from '#shared/db/totals';
import { legacyProductKeys } from '#shared/db/keys';
import { isConditionFailure, tableName, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { NotFoundError } from '#shared/errors';
import { LEGACY_PRODUCTS, legacyProductFromItem, legacyProductPut, type LegacyProductRecord } from './stored';

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

export async function listLegacyProducts(tenant: Tenant, page: PageRequest): Promise<{ items: LegacyProductRecord[]; total: number }> {
  const [items, total] = await Promise.all([
    readPage({ index: 'gsi1', partition: legacyProductKeys.legacyProductsCollection(tenant), newestFirst: true }, page),
    readTotal(tenant, LEGACY_PRODUCTS),
  ]);
  return { items: items.map(legacyProductFromItem), total };
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

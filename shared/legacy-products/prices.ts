/**
 * Price items of legacy products: one item per (format, color, quantity, pages), so a
 * calculation is one GetItem. Tables are versioned so that readers never see half an import:
 *
 *   1. allocate version n (counter on the product) and record it: PRICE_VERSION#n, state writing
 *   2. write all items of version n with BatchWriteItem (not visible: the product points at n−1…)
 *   3. one transaction: product.price_version = n (if still the version we started from), remove
 *      the PRICE_VERSION#n record, record the previous version as `retired`
 *   4. delete the items of retired versions (and of imports abandoned for over an hour), then
 *      their records; what a time budget leaves over is finished by the next import.
 *
 * A create writes version 1 the same way before the product exists. Whatever fails after a
 * version was started — a create or an import — removes the version's items and record at once
 * (`discardVersion`); and a version whose writer died (a function that timed out half-way) stays
 * listed in the tenant's staging collection (gsi1) until the next create or import of the tenant
 * removes it once it is an hour old (`sweepAbandonedVersions`) — also when its product was never
 * created, so no price item outlives a failed create.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { batchWriteAll, deleteRequest, putRequest } from '#shared/db/batch';
import { type ItemKey, legacyPriceStagingKeys, legacyProductKeys } from '#shared/db/keys';
import { logger } from '#shared/logger';
import { queryAll } from '#shared/db/query';
import { tableName, type TransactItem } from '#shared/db/table';
import type { PriceCell, PriceRow, TableShape } from './price-table';

/** An import still `writing` after this long has died (a function runs at most 15 minutes). */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

type Shape = Pick<TableShape, 'formats' | 'colors'>;

export async function startPriceVersion(tenant: Tenant, id: number, version: number, shape: Shape, now = new Date()): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...legacyProductKeys.legacyPriceVersion(tenant, id, version),
        entity: 'LEGACY_PRICE_VERSION',
        version,
        state: 'writing',
        formats: shape.formats,
        colors: shape.colors,
        started_at: now.toISOString(),
        // Listed in the tenant's staging collection until the switch (or a cleanup) deletes the record.
        gsi1pk: legacyPriceStagingKeys.partition(tenant),
        gsi1sk: legacyPriceStagingKeys.sortKey(now.toISOString(), id, version),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** The transaction item that records a version replaced at the switch, for removal. */
export function retiredVersionPut(tenant: Tenant, id: number, version: number, shape: Shape, now = new Date()): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...legacyProductKeys.legacyPriceVersion(tenant, id, version),
        entity: 'LEGACY_PRICE_VERSION',
        version,
        state: 'retired',
        formats: shape.formats,
        colors: shape.colors,
        started_at: now.toISOString(),
      },
    },
  };
}

/** Marks a version that lost the race to another import as garbage. */
export async function retireVersion(tenant: Tenant, id: number, version: number): Promise<void> {
  await dynamo()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: legacyProductKeys.legacyPriceVersion(tenant, id, version),
        UpdateExpression: 'SET #state = :retired',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':retired': 'retired' },
      }),
    )
    .catch(() => undefined); // already removed: nothing left to mark
}

/** Items hold only their key and the price: 72,000 of them are written per import, every byte counts. */
export async function writePrices(tenant: Tenant, id: number, version: number, rows: readonly PriceRow[]): Promise<void> {
  await batchWriteAll(rows.map((row) => putRequest({ ...legacyProductKeys.legacyPrice(tenant, id, version, row), price: row.price })));
}

/** The one read of a calculation. */
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

async function partitionKeys(partition: string): Promise<ItemKey[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
    ProjectionExpression: 'pk, sk',
    // Strongly consistent: items written a moment ago (a race loser's) must be found to be deleted.
    ConsistentRead: true,
  });
  return items.map((item): ItemKey => ({ pk: String(item.pk), sk: String(item.sk) }));
}

/** The (quantity, pages) cells priced for one format and color — only read to explain a miss. */
export async function pricedCells(
  tenant: Tenant,
  id: number,
  version: number,
  format: string,
  color: string,
): Promise<{ quantity: number; pages: number }[]> {
  const keys = await partitionKeys(legacyProductKeys.legacyPricePartition(tenant, id, version, format, color));
  return keys.map((key) => {
    const [quantity, pages] = key.sk.split('#');
    return { quantity: Number(quantity), pages: Number(pages) };
  });
}

/**
 * Deletes the items of retired and abandoned versions, then their records, until `budgetMs` is
 * spent. Returns true when nothing is left over.
 */
export async function removeStaleVersions(tenant: Tenant, id: number, budgetMs: number, now = Date.now()): Promise<boolean> {
  const deadline = now + budgetMs;
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
  for (const record of records.Items ?? []) {
    const abandoned = record.state === 'writing' && now - Date.parse(String(record.started_at)) > ABANDONED_AFTER_MS;
    if (record.state !== 'retired' && !abandoned) continue;
    for (const format of (record.formats as string[] | undefined) ?? []) {
      for (const color of (record.colors as string[] | undefined) ?? []) {
        if (Date.now() > deadline) return false;
        const keys = await partitionKeys(legacyProductKeys.legacyPricePartition(tenant, id, Number(record.version), format, color));
        await batchWriteAll(keys.map(deleteRequest));
      }
    }
    await batchWriteAll([deleteRequest({ pk: String(record.pk), sk: String(record.sk) })]);
  }
  return true;
}

/**
 * Removes a version that will never go live (its create or import failed after starting it): its
 * items, then its record. Best effort within `budgetMs`: what is left is finished by a later
 * cleanup (the record stays in the staging collection until it is gone).
 */
export async function discardVersion(tenant: Tenant, id: number, version: number, budgetMs: number): Promise<void> {
  try {
    await retireVersion(tenant, id, version);
    await removeStaleVersions(tenant, id, budgetMs);
  } catch (error) {
    logger.error('price version not discarded; a later create or import removes it', { id, version, error: (error as Error).message });
  }
}

/**
 * Removes what dead writers left: versions still `writing` an hour after they started (no
 * function runs that long), whether or not their product exists. One Query of the tenant's
 * staging collection (usually empty), then the cleanup of each product named, within `budgetMs`.
 */
export async function sweepAbandonedVersions(tenant: Tenant, budgetMs: number, now = Date.now()): Promise<void> {
  const cutoff = new Date(now - ABANDONED_AFTER_MS).toISOString();
  const deadline = now + budgetMs;
  const result = await dynamo().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :cutoff',
      ExpressionAttributeValues: { ':pk': legacyPriceStagingKeys.partition(tenant), ':cutoff': cutoff },
      Limit: 10,
    }),
  );
  const products = new Set((result.Items ?? []).map((item) => Number(String(item.gsi1sk).split('#')[1])));
  for (const id of products) {
    const left = deadline - Date.now();
    if (left <= 0 || !(await removeStaleVersions(tenant, id, left, now))) return;
  }
}

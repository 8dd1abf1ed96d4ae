/**
 * Price items of legacy products: one item per (format, color, quantity, pages), so a
 * calculation is one GetItem. Tables are versioned so that readers never see half an import:
 *
 *   1. allocate version n (counter on the product) and record it: PRICE_VERSION#n, state writing
 *   2. write all items of version n with BatchWriteItem (not visible: the product points at n−1…)
 *   3. one transaction: product.price_version = n (if still the version we started from), remove
 *      the PRICE_VERSION#n record, record the previous version as `retired`
 *   4. delete the items of retired versions (and of imports abandoned for over an hour), then
 *      their records; what a time budget leaves over is finished by the next import or the sweeper.
 *
 * A create writes version 1 the same way before the product exists. Whatever fails after a
 * version was started — a create or an import — removes the version's items and record at once
 * (`discardVersion`). Every version record is also listed, across tenants, in the staged-price-
 * versions index (gsi3, shared/db/keys.ts `legacyPriceSweepKeys`) until it is deleted: a version
 * whose writer died (a function that timed out half-way) or a retired one an import had no time
 * to finish is removed by the legacy price sweeper (sweeper.ts, a scheduled worker) once it is an
 * hour old — also when its product was never created, so no price item outlives a failed create.
 * The live version never has a record, so it is never listed. The items are built in stored.ts;
 * the version records and the price read are written and read through repository.ts.
 */
import type { Tenant } from '#shared/auth/principal';
import { batchWriteAll, deleteRequest, putRequest } from '#shared/db/batch';
import { type ItemKey, legacyProductKeys } from '#shared/db/keys';
import { logger } from '#shared/logger';
import { queryAll, queryPages } from '#shared/db/query';
import type { PriceRow } from './price-table';
import { markPriceVersionRetired, readPriceVersions } from './repository';
import { priceItem } from './stored';

/** An import still `writing` after this long has died (a function runs at most 15 minutes). */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** Marks a version that lost the race to another import as garbage. */
export async function retireVersion(tenant: Tenant, id: number, version: number): Promise<void> {
  await markPriceVersionRetired(tenant, id, version).catch(() => undefined); // already removed: nothing left to mark
}

/** Writes the price items of version `version` (stored.ts `priceItem`), in batches. */
export async function writePrices(tenant: Tenant, id: number, version: number, rows: readonly PriceRow[]): Promise<void> {
  await batchWriteAll(rows.map((row) => putRequest(priceItem(tenant, id, version, row))));
}

/** Every key of one partition, strongly consistent. */
async function partitionKeys(partition: string): Promise<ItemKey[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
    ProjectionExpression: 'pk, sk',
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

/** Keys read per page while a version's partition is deleted: the deadline is checked between pages. */
const DELETE_PAGE = 1_000;

/** Deletes every item of one partition, a page of keys at a time; false when `deadline` came first. */
async function deletePartition(partition: string, deadline: number): Promise<boolean> {
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
    ProjectionExpression: 'pk, sk',
    // Strongly consistent: items written a moment ago (a race loser's) must be found to be deleted.
    ConsistentRead: true,
    Limit: DELETE_PAGE,
  });
  for await (const page of pages) {
    await batchWriteAll(page.items.map((item) => deleteRequest({ pk: String(item.pk), sk: String(item.sk) })));
    if (page.lastKey && Date.now() > deadline) return false;
  }
  return true;
}

/**
 * Deletes the items of retired and abandoned versions of one product, then their records, until
 * `budgetMs` is spent (checked between pages of keys, so a run overshoots it by one page at most).
 * `now` is the clock the age of a `writing` record is judged by. Returns true when nothing is left
 * over; what is left keeps its record (and its index entry), so a later cleanup finds it again.
 */
export async function removeStaleVersions(tenant: Tenant, id: number, budgetMs: number, now = Date.now()): Promise<boolean> {
  const deadline = Date.now() + budgetMs;
  for (const record of await readPriceVersions(tenant, id)) {
    // The live version has no record: the transaction that made it live deleted it.
    const abandoned = record.state === 'writing' && now - Date.parse(record.started_at) > ABANDONED_AFTER_MS;
    if (record.state !== 'retired' && !abandoned) continue;
    for (const format of record.formats) {
      for (const color of record.colors) {
        if (Date.now() > deadline) return false;
        const partition = legacyProductKeys.legacyPricePartition(tenant, id, record.version, format, color);
        if (!(await deletePartition(partition, deadline))) return false;
      }
    }
    await batchWriteAll([deleteRequest(record.key)]);
  }
  return true;
}

/**
 * Removes a version that will never go live (its create or import failed after starting it): its
 * items, then its record. Best effort within `budgetMs`: what is left is finished by a later
 * cleanup (the record stays listed in the staged-price-versions index until it is gone).
 */
export async function discardVersion(tenant: Tenant, id: number, version: number, budgetMs: number): Promise<void> {
  try {
    await retireVersion(tenant, id, version);
    await removeStaleVersions(tenant, id, budgetMs);
  } catch (error) {
    logger.error('price version not discarded; the legacy price sweeper removes it', { id, version, error: (error as Error).message });
  }
}

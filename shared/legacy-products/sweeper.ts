/**
 * The legacy price sweeper: a scheduled worker (`LegacyPriceSweeper`, shared/workers.ts) that
 * removes the price versions nobody else will — a create or import whose function died half-way
 * (a timeout, a crash: no code ran to discard what it had staged), or a retired version an
 * import's own cleanup had no time to finish. Without it those items would stay until the tenant
 * happened to import that product again, or forever when the product was never created.
 *
 * Every legacy price-version record is in the staged-price-versions index (gsi3, shared/db/keys.ts
 * `legacyPriceSweepKeys`), across tenants, under the time it was started (or retired). The
 * sweeper reads each shard's entries older than an hour (one Query each, at most PER_SHARD, no
 * Scan), takes the tenant, product and version from each entry's table key, and hands each
 * product to the same cleanup an import runs (`removeStaleVersions`, prices.ts): it reads the
 * product's records again (strongly consistent) and removes only retired versions and `writing`
 * ones over an hour old — never the live version, which has no record. A run stops when its time
 * budget is spent; what is left keeps its record and index entry, so the next run goes on.
 */
import type { Tenant } from '#shared/auth/principal';
import { legacyPriceSweepKeys, legacyPriceVersionOfKey, STAGING_SHARDS } from '#shared/db/keys';
import { queryAll } from '#shared/db/query';
import { logger } from '#shared/logger';
import { ABANDONED_AFTER_MS, removeStaleVersions } from './prices';

/** Index entries looked at per shard and run: bounds one run's reads (the next run goes on). */
const PER_SHARD = 50;
/** Time one run spends deleting (its function may run 120 s; a run overshoots by a page of keys at most). */
export const SWEEP_BUDGET_MS = 60_000;

export interface PriceSweepOptions {
  /** The clock the age of a record is judged by (default: now). */
  now?: Date;
  /** Time to spend deleting (default SWEEP_BUDGET_MS). */
  budgetMs?: number;
}

export interface PriceSweepResult {
  /** Index entries over an hour old found (at most PER_SHARD per shard). */
  found: number;
  /** Products whose retired and abandoned versions are all gone now. */
  cleaned: number;
  /** Products left for the next run (the budget ran out, or their cleanup failed). */
  left: number;
}

/** The products of the index entries started (or retired) before `cutoff` (ISO), oldest first per shard. */
async function staleProducts(cutoff: string): Promise<{ found: number; products: { tenant: Tenant; id: number }[] }> {
  const shards = Array.from({ length: STAGING_SHARDS }, (_, shard) => shard);
  const entries = (
    await Promise.all(
      shards.map((shard) =>
        queryAll(
          {
            IndexName: 'gsi3',
            // The sort key starts with the ISO time: every entry of an earlier time sorts before the bare cutoff.
            KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk < :cutoff',
            ExpressionAttributeValues: { ':shard': legacyPriceSweepKeys.stagingShard(shard), ':cutoff': cutoff },
          },
          { max: PER_SHARD },
        ),
      ),
    )
  ).flat();
  const products = new Map<string, { tenant: Tenant; id: number }>();
  for (const entry of entries) {
    const found = legacyPriceVersionOfKey({ pk: String(entry.pk), sk: String(entry.sk) });
    if (found) products.set(String(entry.pk), { tenant: found.tenant, id: found.id });
  }
  return { found: entries.length, products: [...products.values()] };
}

export async function sweepStagedPriceVersions(options: PriceSweepOptions = {}): Promise<PriceSweepResult> {
  const now = options.now ?? new Date();
  const deadline = Date.now() + (options.budgetMs ?? SWEEP_BUDGET_MS);
  const { found, products } = await staleProducts(new Date(now.getTime() - ABANDONED_AFTER_MS).toISOString());
  let cleaned = 0;
  let failed = 0;
  for (const { tenant, id } of products) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    try {
      // Acts on what the product's records say now, not on the index (which lags the table).
      if (await removeStaleVersions(tenant, id, left, now.getTime())) cleaned += 1;
    } catch (error) {
      // One product's failure does not hold up the others; the run still fails below (the alarm), the next one retries.
      failed += 1;
      logger.error('legacy price versions not removed', {
        accountId: tenant.accountId,
        mode: tenant.mode,
        id,
        error: (error as Error).message,
      });
    }
  }
  const result = { found, cleaned, left: products.length - cleaned };
  if (found) logger.warn('legacy price versions over an hour old swept', { ...result });
  if (failed) throw new Error(`legacy price sweep: the cleanup of ${failed} product(s) failed; the next run retries`);
  return result;
}

/**
 * A legacy product whose create fails leaves no price items behind: the create writes its price
 * table before the product item, so a failure after that removes the staged version at once, and
 * what a writer that died left (no code ran after it) is removed by the legacy price sweeper once
 * it is an hour old — across tenants, never a live version. The product repository's writes are
 * made to fail or to hang here (the service runs in the test process, against the test engines).
 *
 * "An hour later" is made by ageing the dead writer's version record (its `started_at` and its
 * index entry), not by running the sweep with a clock an hour ahead: the sweep is cross-tenant, and
 * a clock ahead would take the versions other test files are writing right now for abandoned.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { legacyPriceSweepKeys, legacyProductKeys, STAGING_SHARDS } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import type { PriceRow } from '#shared/legacy-products/price-table';
import * as prices from '#shared/legacy-products/prices';
import type * as repository from '#shared/legacy-products/repository';
import { insertLegacyProduct, readLegacyProduct, switchPriceVersion } from '#shared/legacy-products/repository';
import { LegacyProductCreateSchema } from '#shared/legacy-products/schema';
import { calculateLegacyPrice, createLegacyProduct, importPrices } from '#shared/legacy-products/service';
import { sweepStagedPriceVersions } from '#shared/legacy-products/sweeper';
import { brochure, smallTable } from '#test/support/products';

vi.mock('#shared/legacy-products/repository', async (importOriginal) => {
  const original = await importOriginal<typeof repository>();
  return {
    ...original,
    insertLegacyProduct: vi.fn(original.insertLegacyProduct),
    switchPriceVersion: vi.fn(original.switchPriceVersion),
  };
});

vi.mock('#shared/legacy-products/prices', async (importOriginal) => {
  const original = await importOriginal<typeof prices>();
  return { ...original, removeStaleVersions: vi.fn(original.removeStaleVersions) };
});

const HOUR = 60 * 60 * 1000;

async function newTenant(name: string): Promise<Tenant> {
  const account = await createAccount({ name, plan: 'starter' });
  return { accountId: account.account.id, mode: 'test' };
}

const query = async (input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>) =>
  (await dynamo().send(new QueryCommand({ TableName: tableName(), ConsistentRead: !input.IndexName, ...input }))).Items ?? [];

const input = (rows: unknown[] = smallTable) => LegacyProductCreateSchema.parse(brochure(rows));
const rows = () => input().prices;
const csvOf = (table: readonly { format: string; color: string; quantity: number; pages: number; price: number }[]) =>
  ['format,color,quantity,pages,price', ...table.map((row) => `${row.format},${row.color},${row.quantity},${row.pages},${row.price}`)].join(
    '\n',
  );

/** The price items of one version of product `id` (over the formats and colors of `table`). */
async function priceItems(tenant: Tenant, id: number, version: number, table: readonly PriceRow[]): Promise<number> {
  let count = 0;
  for (const format of new Set(table.map((row) => row.format))) {
    for (const color of new Set(table.map((row) => row.color))) {
      const items = await query({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': legacyProductKeys.legacyPricePartition(tenant, id, version, format, color) },
      });
      count += items.length;
    }
  }
  return count;
}

/** The version records of product `id`, and its entries in the staged-price-versions index. */
async function records(tenant: Tenant, id: number): Promise<{ versions: number[]; listed: number }> {
  const pk = legacyProductKeys.legacyProduct(tenant, id).pk;
  const versions = await query({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': legacyProductKeys.legacyPriceVersionPrefix },
  });
  let listed = 0;
  for (let shard = 0; shard < STAGING_SHARDS; shard++) {
    const entries = await query({
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :shard',
      ExpressionAttributeValues: { ':shard': legacyPriceSweepKeys.stagingShard(shard) },
    });
    listed += entries.filter((entry) => entry.pk === pk).length;
  }
  return { versions: versions.map((item) => Number(item.version)), listed };
}

/** Makes version `version` of product `id` look started (or retired) `ms` ago, in its record and its index entry. */
async function age(tenant: Tenant, id: number, version: number, ms: number): Promise<void> {
  const at = new Date(Date.now() - ms).toISOString();
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: legacyProductKeys.legacyPriceVersion(tenant, id, version),
      UpdateExpression: 'SET started_at = :at, gsi3sk = :sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at, ':sk': legacyPriceSweepKeys.staged(id, version, at).gsi3sk },
    }),
  );
}

/** Resolves once `mock` was called; that call never settles: its function "died" there (a timeout, a crash). */
function dieAt(mock: typeof insertLegacyProduct | typeof switchPriceVersion): Promise<void> {
  return new Promise((reached) => {
    vi.mocked(mock).mockImplementationOnce(() => {
      reached();
      return new Promise<never>(() => undefined);
    });
  });
}

/** Starts a create that dies after writing its prices, before its product: the id it took. */
async function deadCreate(tenant: Tenant, table: unknown[] = smallTable): Promise<number> {
  const died = dieAt(insertLegacyProduct);
  void createLegacyProduct(tenant, input(table));
  await died;
  const call = vi.mocked(insertLegacyProduct).mock.calls.at(-1)!;
  return call[1].id;
}

describe('a legacy product create that fails', () => {
  it('removes the price items it had written (the product item was never created)', async () => {
    const tenant = await newTenant('Cleanup Shop');
    vi.mocked(insertLegacyProduct).mockRejectedValueOnce(new Error('the product write failed'));
    await expect(createLegacyProduct(tenant, input())).rejects.toThrow('the product write failed');
    // The first product of the account was to be id 1.
    expect(await priceItems(tenant, 1, 1, rows())).toBe(0);
    expect(await records(tenant, 1)).toEqual({ versions: [], listed: 0 });
  });

  it('leaves a create that succeeds intact (its prices live, nothing staged or listed)', async () => {
    const tenant = await newTenant('Cleanup Shop');
    const product = await createLegacyProduct(tenant, input());
    expect(await priceItems(tenant, product.id, 1, rows())).toBe(smallTable.length);
    expect(await records(tenant, product.id)).toEqual({ versions: [], listed: 0 });
  });
});

describe('the legacy price sweeper', () => {
  it('removes what a create that died after staging left, once it is an hour old; a younger one stays', async () => {
    const tenant = await newTenant('Dead Writer Shop');
    const dead = await deadCreate(tenant);
    const young = await deadCreate(tenant);
    expect(await priceItems(tenant, dead, 1, rows())).toBe(smallTable.length);
    expect(await records(tenant, dead)).toEqual({ versions: [1], listed: 1 });

    await sweepStagedPriceVersions();
    expect(await priceItems(tenant, dead, 1, rows()), 'not an hour old yet').toBe(smallTable.length);

    await age(tenant, dead, 1, HOUR + 60_000);
    await age(tenant, young, 1, HOUR - 60_000);
    await sweepStagedPriceVersions();
    expect(await priceItems(tenant, dead, 1, rows())).toBe(0);
    expect(await records(tenant, dead)).toEqual({ versions: [], listed: 0 });
    expect(await readLegacyProduct(tenant, dead)).toBeUndefined();
    // 59 minutes old: its writer might still be running.
    expect(await priceItems(tenant, young, 1, rows())).toBe(smallTable.length);
    expect(await records(tenant, young)).toEqual({ versions: [1], listed: 1 });
  });

  it('removes an import that died before its switch and a retired version left over, never the live one', async () => {
    const tenant = await newTenant('Live Table Shop');
    const product = await createLegacyProduct(tenant, input());
    const replacement = smallTable.map((row, index) => ({ ...row, price: 100 + index }));
    // A successful import whose own cleanup had no time: version 1 stays, retired, with its items.
    vi.mocked(prices.removeStaleVersions).mockResolvedValueOnce(false);
    await importPrices(tenant, product.id, csvOf(replacement));
    // An import that died after writing version 3, before its switch.
    const died = dieAt(switchPriceVersion);
    void importPrices(tenant, product.id, csvOf(smallTable));
    await died;
    expect(await records(tenant, product.id)).toEqual({ versions: [1, 3], listed: 2 });
    expect(await priceItems(tenant, product.id, 3, rows())).toBe(smallTable.length);

    await age(tenant, product.id, 1, 2 * HOUR);
    await age(tenant, product.id, 3, 2 * HOUR);
    await sweepStagedPriceVersions();

    expect(await records(tenant, product.id)).toEqual({ versions: [], listed: 0 });
    expect(await priceItems(tenant, product.id, 1, rows())).toBe(0);
    expect(await priceItems(tenant, product.id, 3, rows())).toBe(0);
    // Version 2 is live: all of it is there and priced.
    expect((await readLegacyProduct(tenant, product.id))?.price_version).toBe(2);
    expect(await priceItems(tenant, product.id, 2, rows())).toBe(smallTable.length);
    const quote = await calculateLegacyPrice(tenant, product.id, { format: 'A5', color: '4/4', quantity: 100, pages: 8 });
    expect(quote.price).toBe(100);
  });

  it("sweeps every tenant's abandoned versions in one run and never touches another tenant's live table of the same id and version", async () => {
    const [first, second] = [await newTenant('Sweep Shop A'), await newTenant('Sweep Shop B')];
    // Both tenants' first product is id 1 with price version 1: one dead, one live.
    const deadOfFirst = await deadCreate(first);
    const live = await createLegacyProduct(second, input());
    const deadOfSecond = await deadCreate(second);
    expect([deadOfFirst, live.id, deadOfSecond]).toEqual([1, 1, 2]);
    await age(first, deadOfFirst, 1, 2 * HOUR);
    await age(second, deadOfSecond, 1, 2 * HOUR);

    await sweepStagedPriceVersions();
    expect(await priceItems(first, deadOfFirst, 1, rows())).toBe(0);
    expect(await records(first, deadOfFirst)).toEqual({ versions: [], listed: 0 });
    expect(await priceItems(second, deadOfSecond, 1, rows())).toBe(0);
    expect(await records(second, deadOfSecond)).toEqual({ versions: [], listed: 0 });
    expect(await priceItems(second, live.id, 1, rows())).toBe(smallTable.length);
    const quote = await calculateLegacyPrice(second, live.id, { format: 'A4', color: '4/0', quantity: 100, pages: 12 });
    expect(quote.price).toBe(79.5);
  });

  it('stops when its time is spent and leaves the rest listed for the next run', async () => {
    const tenant = await newTenant('Large Table Shop');
    // One (format, color) partition of 2,500 prices: three pages of keys to delete.
    const large = Array.from({ length: 2_500 }, (_, index) => ({ format: 'A4', color: '4/4', quantity: index + 1, pages: 4, price: 10 }));
    const dead = await deadCreate(tenant, large);
    const table = input(large).prices;
    expect(await priceItems(tenant, dead, 1, table)).toBe(large.length);
    await age(tenant, dead, 1, 2 * HOUR);

    const first = await sweepStagedPriceVersions({ budgetMs: 1 });
    expect(first.left).toBeGreaterThanOrEqual(1);
    // Deletes stop between pages of keys: some or all of the items are left, and the record with its entry.
    expect(await priceItems(tenant, dead, 1, table)).toBeGreaterThan(0);
    expect(await records(tenant, dead)).toEqual({ versions: [1], listed: 1 });

    await sweepStagedPriceVersions();
    expect(await priceItems(tenant, dead, 1, table)).toBe(0);
    expect(await records(tenant, dead)).toEqual({ versions: [], listed: 0 });
  });
});

/**
 * A legacy product whose create fails leaves no price items behind: the create writes its price
 * table before the product item, so a failure after that removes the staged version at once, and a
 * writer that died (no code ran after it) is found in the tenant's staging collection and removed
 * by the next create once it is an hour old. The product repository's insert is made to fail here
 * (the service runs in the test process, against the test engines).
 *
 * Staged price items carry the table's TTL attribute (`expires_at`) until the commit makes them
 * permanent, so what a dead writer staged expires even if the tenant never imports again — and
 * nothing a live version uses ever carries it. A writer that dies is simulated by a commit that
 * never returns.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { legacyPriceStagingKeys, legacyProductKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { rowsFromCsv, tableShape, type PriceRow } from '#shared/legacy-products/price-table';
import type * as prices from '#shared/legacy-products/prices';
import { commitPriceVersion, STAGED_TTL_SECONDS, stagedExpiry, startPriceVersion, writePrices } from '#shared/legacy-products/prices';
import type * as repository from '#shared/legacy-products/repository';
import { insertLegacyProduct } from '#shared/legacy-products/repository';
import { LegacyProductCreateSchema } from '#shared/legacy-products/schema';
import { calculateLegacyPrice, createLegacyProduct, importPrices } from '#shared/legacy-products/service';
import { brochure, smallTable } from '#test/support/products';

vi.mock('#shared/legacy-products/repository', async (importOriginal) => {
  const original = await importOriginal<typeof repository>();
  return { ...original, insertLegacyProduct: vi.fn(original.insertLegacyProduct) };
});
vi.mock('#shared/legacy-products/prices', async (importOriginal) => {
  const original = await importOriginal<typeof prices>();
  return { ...original, commitPriceVersion: vi.fn(original.commitPriceVersion) };
});

let tenant: Tenant;

beforeAll(async () => {
  const account = await createAccount({ name: 'Cleanup Shop', plan: 'starter' });
  tenant = { accountId: account.account.id, mode: 'test' };
});

const query = async (input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>) =>
  (await dynamo().send(new QueryCommand({ TableName: tableName(), ConsistentRead: !input.IndexName, ...input }))).Items ?? [];

/** The price items of version `version` of product `id` (a table of `rows`). */
async function priceItems(id: number, version: number, rows: readonly PriceRow[], of: Tenant = tenant) {
  const shape = tableShape(rows);
  const items = [];
  for (const format of shape.formats) {
    for (const color of shape.colors) {
      items.push(
        ...(await query({
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': legacyProductKeys.legacyPricePartition(of, id, version, format, color) },
        })),
      );
    }
  }
  return items;
}

/** The version records of product `id`. */
const versionRecords = (id: number, of: Tenant = tenant) =>
  query({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': legacyProductKeys.legacyProduct(of, id).pk,
      ':prefix': legacyProductKeys.legacyPriceVersionPrefix,
    },
  });

/** Every price item and version record of product `id`, and the tenant's staging entries. */
async function leftovers(id: number, rows: readonly PriceRow[], of: Tenant = tenant) {
  const prices = await priceItems(id, 1, rows, of);
  const versions = await versionRecords(id, of);
  const staging = await query({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': legacyPriceStagingKeys.partition(of) },
  });
  return { prices: prices.length, versions: versions.length, staging: staging.length };
}

const input = () => LegacyProductCreateSchema.parse(brochure());
const rows = () => input().prices;

describe('a legacy product create that fails', () => {
  it('removes the price items it had written (the product item was never created)', async () => {
    vi.mocked(insertLegacyProduct).mockRejectedValueOnce(new Error('the product write failed'));
    await expect(createLegacyProduct(tenant, input())).rejects.toThrow('the product write failed');
    // The first product of the account was to be id 1.
    expect(await leftovers(1, rows())).toEqual({ prices: 0, versions: 0, staging: 0 });
  });

  it('leaves a create that succeeds intact (its prices live, nothing staged)', async () => {
    const product = await createLegacyProduct(tenant, input());
    expect(product.id).toBe(2);
    expect(await leftovers(2, rows())).toEqual({ prices: smallTable.length, versions: 0, staging: 0 });
  });

  it('has what a writer that died left removed by the next create, once it is an hour old', async () => {
    // As a create that timed out between writing its prices and its product: product 77 never existed.
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await startPriceVersion(tenant, 77, 1, tableShape(rows()), twoHoursAgo);
    await writePrices(tenant, 77, 1, rows());
    // And one that is only starting (a minute old): left alone.
    await startPriceVersion(tenant, 78, 1, tableShape(rows()), new Date(Date.now() - 60_000));
    await writePrices(tenant, 78, 1, rows());
    expect(await leftovers(77, rows())).toMatchObject({ prices: smallTable.length, versions: 1, staging: 2 });

    await createLegacyProduct(tenant, input());
    expect(await leftovers(77, rows())).toEqual({ prices: 0, versions: 0, staging: 1 });
    expect(await leftovers(78, rows())).toEqual({ prices: smallTable.length, versions: 1, staging: 1 });
  });
});

describe('staged price items expire unless committed (TTL)', () => {
  let own: Tenant;
  beforeAll(async () => {
    const account = await createAccount({ name: 'Staging TTL Shop', plan: 'starter' });
    own = { accountId: account.account.id, mode: 'test' };
  });

  const csv = 'format,color,quantity,pages,price\nA3,4/4,50,4,19.90\nA3,4/4,100,4,29.90\nA3,4/0,50,4,17.50\n';

  /** `expires_at` about a day from now (staged a moment ago). */
  const expectStagedExpiry = (item: Record<string, unknown>) => {
    const dayAhead = Math.floor(Date.now() / 1000) + STAGED_TTL_SECONDS;
    expect(item.expires_at).toEqual(expect.any(Number));
    expect(Number(item.expires_at)).toBeGreaterThan(dayAhead - 120);
    expect(Number(item.expires_at)).toBeLessThanOrEqual(dayAhead);
  };

  it('leaves no expires_at on the items of a created product or of an imported table', async () => {
    const product = await createLegacyProduct(own, input());
    const created = await priceItems(product.id, 1, rows(), own);
    expect(created).toHaveLength(smallTable.length);
    for (const item of created) expect(item).not.toHaveProperty('expires_at');
    expect(await versionRecords(product.id, own)).toEqual([]);

    const imported = await importPrices(own, product.id, csv);
    expect(imported.price_count).toBe(3);
    const items = await priceItems(product.id, 2, rowsFromCsv(csv), own);
    expect(items).toHaveLength(3);
    for (const item of items) expect(item).not.toHaveProperty('expires_at');
    // The replaced version is gone, the new one's record deleted at the switch.
    expect(await priceItems(product.id, 1, rows(), own)).toEqual([]);
    expect(await versionRecords(product.id, own)).toEqual([]);
    const quote = await calculateLegacyPrice(own, product.id, { format: 'A3', color: '4/0', quantity: 50, pages: 4 });
    expect(quote.price).toBe(17.5);
  });

  it('leaves a create that dies before its commit with items and record that expire in a day', async () => {
    vi.mocked(commitPriceVersion)
      .mockClear()
      .mockImplementationOnce(() => new Promise<void>(() => undefined)); // never returns
    void createLegacyProduct(own, input());
    await vi.waitFor(() => expect(commitPriceVersion).toHaveBeenCalledTimes(1));
    const id = vi.mocked(commitPriceVersion).mock.calls[0]![1];
    const items = await priceItems(id, 1, rows(), own);
    expect(items).toHaveLength(smallTable.length);
    for (const item of items) expectStagedExpiry(item);
    const [record] = await versionRecords(id, own);
    expect(record).toMatchObject({ state: 'writing' });
    expectStagedExpiry(record!);
  });

  it('leaves an import that dies before its commit with expiring staged items, and the live table without expires_at', async () => {
    const product = await createLegacyProduct(own, input());
    vi.mocked(commitPriceVersion)
      .mockClear()
      .mockImplementationOnce(() => new Promise<void>(() => undefined));
    void importPrices(own, product.id, csv);
    await vi.waitFor(() => expect(commitPriceVersion).toHaveBeenCalledWith(own, product.id, 2, expect.anything(), 1));
    const staged = await priceItems(product.id, 2, rowsFromCsv(csv), own);
    expect(staged).toHaveLength(3);
    for (const item of staged) expectStagedExpiry(item);
    const live = await priceItems(product.id, 1, rows(), own);
    expect(live).toHaveLength(smallTable.length);
    for (const item of live) expect(item).not.toHaveProperty('expires_at');
    expect((await calculateLegacyPrice(own, product.id, { format: 'A5', color: '4/4', quantity: 100, pages: 8 })).price).toBe(49.9);
  });

  it('has a version whose writer died during the commit (permanent items) removed by the next create, once it is an hour old', async () => {
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await startPriceVersion(own, 91, 1, tableShape(rows()), twoHoursAgo);
    await writePrices(own, 91, 1, rows(), stagedExpiry(twoHoursAgo));
    await commitPriceVersion(own, 91, 1, rows()); // and then died before creating product 91
    const [record] = await versionRecords(91, own);
    expect(record).toMatchObject({ state: 'committing' });
    expect(record).not.toHaveProperty('expires_at');
    for (const item of await priceItems(91, 1, rows(), own)) expect(item).not.toHaveProperty('expires_at');

    await createLegacyProduct(own, input());
    expect(await priceItems(91, 1, rows(), own)).toEqual([]);
    expect(await versionRecords(91, own)).toEqual([]);
  });
});

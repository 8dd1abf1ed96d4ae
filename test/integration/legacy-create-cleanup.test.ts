/**
 * A legacy product whose create fails leaves no price items behind: the create writes its price
 * table before the product item, so a failure after that removes the staged version at once, and a
 * writer that died (no code ran after it) is found in the tenant's staging collection and removed
 * by the next create once it is an hour old. The product repository's insert is made to fail here
 * (the service runs in the test process, against the test engines).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { legacyPriceStagingKeys, legacyProductKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { tableShape, type PriceRow } from '#shared/legacy-products/price-table';
import { startPriceVersion, writePrices } from '#shared/legacy-products/prices';
import type * as repository from '#shared/legacy-products/repository';
import { insertLegacyProduct } from '#shared/legacy-products/repository';
import { LegacyProductCreateSchema } from '#shared/legacy-products/schema';
import { createLegacyProduct } from '#shared/legacy-products/service';
import { brochure, smallTable } from '#test/support/products';

vi.mock('#shared/legacy-products/repository', async (importOriginal) => {
  const original = await importOriginal<typeof repository>();
  return { ...original, insertLegacyProduct: vi.fn(original.insertLegacyProduct) };
});

let tenant: Tenant;

beforeAll(async () => {
  const account = await createAccount({ name: 'Cleanup Shop', plan: 'starter' });
  tenant = { accountId: account.account.id, mode: 'test' };
});

const query = async (input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>) =>
  (await dynamo().send(new QueryCommand({ TableName: tableName(), ConsistentRead: !input.IndexName, ...input }))).Items ?? [];

/** Every price item and version record of product `id`, and the tenant's staging entries. */
async function leftovers(id: number, rows: readonly PriceRow[]) {
  const shape = tableShape(rows);
  const prices = [];
  for (const format of shape.formats) {
    for (const color of shape.colors) {
      prices.push(
        ...(await query({
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': legacyProductKeys.legacyPricePartition(tenant, id, 1, format, color) },
        })),
      );
    }
  }
  const versions = await query({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': legacyProductKeys.legacyProduct(tenant, id).pk,
      ':prefix': legacyProductKeys.legacyPriceVersionPrefix,
    },
  });
  const staging = await query({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': legacyPriceStagingKeys.partition(tenant) },
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

/**
 * Legacy products: products priced by lookup over (format, color, quantity, pages). A price
 * table is checked completely before anything is written and becomes visible all at once
 * (versioned price items, prices.ts). Calculate reads the product and the account in parallel,
 * then exactly one price item.
 */
import { getAccount } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { fromMinor } from '#shared/money';
import { taxOn } from '#shared/pricing/tax';
import { needsPlaceholder, resolveImages } from './images';
import { cellProblems, missingCellProblem } from './lookup';
import { duplicateProblems, rowsFromCsv, tableShape, type PriceRow } from './price-table';
import { pricedCells, readPrice, removeStaleVersions, retireVersion, retiredVersionPut, startPriceVersion, writePrices } from './prices';
import * as repo from './repository';
import { PriceTableChanged, PriceVersionLost } from './repository';
import type { LegacyCalculateBody, LegacyListQuery, LegacyProduct, LegacyProductCreate, LegacyQuote } from './schema';
import { storedLegacyProduct, type LegacyProductRecord } from './stored';

/** Time an import spends removing the previous table's items; the rest waits for the next import. */
const CLEANUP_BUDGET_MS = 5_000;

/** The product as responses show it: `images` resolved (gallery, else image, else the account's placeholder). */
export const presentLegacyProduct = (record: LegacyProductRecord, placeholder: string | undefined): LegacyProduct =>
  storedLegacyProduct.view({ ...record, images: resolveImages(record, placeholder) });

/** The account's placeholder, read only when some product has no image of its own. */
async function placeholderFor(tenant: Tenant, records: LegacyProductRecord[]): Promise<string | undefined> {
  if (!records.some(needsPlaceholder)) return undefined;
  return (await getAccount(tenant.accountId))?.placeholder_image_url ?? undefined;
}

/** Writes version `version` of the price items and records it first, so that a crash leaves a trace for cleanup. */
async function stagePrices(tenant: Tenant, id: number, version: number, rows: PriceRow[]): Promise<void> {
  await startPriceVersion(tenant, id, version, tableShape(rows));
  await writePrices(tenant, id, version, rows);
}

export async function createLegacyProduct(tenant: Tenant, input: LegacyProductCreate): Promise<LegacyProduct> {
  const duplicates = duplicateProblems(input.prices, (index) => `prices.${index}`);
  if (duplicates.length) throw new ValidationError('The price table has duplicate rows; nothing was stored', duplicates);
  const id = await nextId(tenant, 'legacy_product');
  const now = new Date().toISOString();
  const version = input.prices.length ? 1 : 0;
  if (version) await stagePrices(tenant, id, version, input.prices);
  const record: LegacyProductRecord = {
    id,
    name: input.name,
    description: input.description ?? null,
    image: input.image ?? null,
    gallery_images: input.gallery_images,
    brands: input.brands,
    ...tableShape(input.prices),
    images: [],
    price_version: version,
    price_count: input.prices.length,
    prices_updated_at: version ? now : null,
    created_at: now,
    updated_at: now,
    price_version_seq: version,
  };
  try {
    await repo.insertLegacyProduct(tenant, record, version || undefined);
  } catch (error) {
    if (error instanceof PriceVersionLost) throw new ConflictError('Writing the price table took too long; send the request again');
    throw error;
  }
  return presentLegacyProduct(record, await placeholderFor(tenant, [record]));
}

export async function getLegacyProduct(tenant: Tenant, id: number): Promise<LegacyProduct> {
  const record = await repo.requireLegacyProduct(tenant, id);
  return presentLegacyProduct(record, await placeholderFor(tenant, [record]));
}

export async function listLegacyProducts(tenant: Tenant, query: LegacyListQuery): Promise<{ items: LegacyProduct[]; total: number }> {
  const { items, total } = await repo.listLegacyProducts(tenant, { page: query.page, perPage: query.per_page });
  const placeholder = await placeholderFor(tenant, items);
  return { items: items.map((record) => presentLegacyProduct(record, placeholder)), total };
}

/** Replaces the price table from CSV: validated fully, written invisibly, switched in one write. */
export async function importPrices(tenant: Tenant, id: number, csv: string): Promise<LegacyProduct> {
  const before = await repo.requireLegacyProduct(tenant, id);
  const rows = rowsFromCsv(csv);
  const version = await repo.allocatePriceVersion(tenant, id);
  await stagePrices(tenant, id, version, rows);
  const now = new Date().toISOString();
  const after: LegacyProductRecord = {
    ...before,
    ...tableShape(rows),
    price_version: version,
    price_count: rows.length,
    prices_updated_at: now,
    updated_at: now,
  };
  const retireOld = before.price_version ? retiredVersionPut(tenant, id, before.price_version, before) : undefined;
  try {
    await repo.switchPriceVersion(tenant, before, after, retireOld);
  } catch (error) {
    if (error instanceof PriceTableChanged) {
      await retireVersion(tenant, id, version);
      await removeStaleVersions(tenant, id, CLEANUP_BUDGET_MS);
      throw new ConflictError(
        'Another price import for this product finished while this one ran; this one changed nothing — send it again if it should win',
      );
    }
    if (error instanceof PriceVersionLost) throw new ConflictError('The import took too long and was abandoned; send it again');
    throw error;
  }
  await removeStaleVersions(tenant, id, CLEANUP_BUDGET_MS);
  return presentLegacyProduct(after, await placeholderFor(tenant, [after]));
}

export async function calculateLegacyPrice(tenant: Tenant, id: number, cell: LegacyCalculateBody): Promise<LegacyQuote> {
  const [read, account] = await Promise.all([repo.readLegacyProduct(tenant, id), getAccount(tenant.accountId)]);
  if (!read) throw new NotFoundError('legacy product', id);
  let record = read;
  const invalid = (problems: ReturnType<typeof cellProblems>) => new ValidationError('There is no price for this combination', problems);
  if (cellProblems(record, cell).length) throw invalid(cellProblems(record, cell));
  let price = await readPrice(tenant, id, record.price_version, cell);
  if (price === undefined) {
    // An import may have switched versions between our two reads: look once more at the live one.
    const fresh = await repo.readLegacyProduct(tenant, id, true);
    if (fresh && fresh.price_version !== record.price_version) {
      record = fresh;
      if (cellProblems(record, cell).length) throw invalid(cellProblems(record, cell));
      price = await readPrice(tenant, id, record.price_version, cell);
    }
  }
  if (price === undefined)
    throw invalid([missingCellProblem(cell, await pricedCells(tenant, id, record.price_version, cell.format, cell.color))]);
  const taxRate = account?.tax_rate ?? 19;
  const tax = taxOn(price, taxRate);
  return {
    legacy_product_id: id,
    format: cell.format,
    color: cell.color,
    quantity: cell.quantity,
    pages: cell.pages,
    price: fromMinor(price),
    tax_rate: taxRate,
    tax: fromMinor(tax),
    total: fromMinor(price + tax),
    currency: account?.currency ?? 'EUR',
  };
}

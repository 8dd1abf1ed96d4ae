/**
 * Legacy products: products priced by lookup over (format, color, quantity, pages). A price
 * table is checked completely before anything is written and becomes visible all at once
 * (versioned price items, prices.ts). Calculate reads the product and the account in parallel,
 * then exactly one price item.
 */
import { getAccountRecord } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { fromMinor } from '#shared/money';
import { getAccount } from '#shared/accounts/repository';
import { accountTaxSettings } from '#shared/accounts/tax';
import { DOMESTIC, lineTax, saleTaxes } from '#shared/tax/sale';
import { exemptionProblems } from '#shared/tax/exemption';
import { taxEntryView } from '#shared/tax/view';
import { needsPlaceholder, resolveImages } from './images';
import { cellProblems, missingCellProblem } from './lookup';
import { duplicateProblems, rowsFromCsv, tableShape, type PriceRow } from './price-table';
import { discardVersion, pricedCells, removeStaleVersions, writePrices } from './prices';
import * as repo from './repository';
import { PriceTableChanged, PriceVersionLost } from './repository';
import type { LegacyCalculateBody, LegacyListQuery, LegacyProduct, LegacyProductCreate, LegacyQuote } from './schema';
import { legacyProductSizeProblems, retiredVersionPut, storedLegacyProduct, type LegacyProductRecord } from './stored';

/**
 * Time an import spends removing the previous table's items; the rest waits for the next import or
 * the legacy price sweeper. A create or import cleans up only its own product: what dead writers
 * left anywhere is the sweeper's (shared/legacy-products/sweeper.ts, every 15 minutes, across
 * tenants), so no request spends its time on another product's leftovers.
 */
const CLEANUP_BUDGET_MS = 5_000;

/** The product as responses show it: `images` resolved (gallery, else image, else the account's placeholder). */
export const presentLegacyProduct = (record: LegacyProductRecord, placeholder: string | undefined): LegacyProduct =>
  storedLegacyProduct.view({ ...record, images: resolveImages(record, placeholder) });

/** The account's placeholder, read only when some product has no image of its own. */
async function placeholderFor(tenant: Tenant, records: LegacyProductRecord[]): Promise<string | undefined> {
  if (!records.some(needsPlaceholder)) return undefined;
  return (await getAccountRecord(tenant.accountId))?.placeholder_image_url ?? undefined;
}

/** Writes version `version` of the price items and records it first, so that a crash leaves a trace for cleanup. */
async function stagePrices(tenant: Tenant, id: number, version: number, rows: PriceRow[]): Promise<void> {
  await repo.startPriceVersion(tenant, id, version, tableShape(rows));
  await writePrices(tenant, id, version, rows);
}

/** A product too large to store is refused before anything is written (422). */
function assertFits(record: LegacyProductRecord): void {
  const problems = legacyProductSizeProblems(record);
  if (problems.length) throw new ValidationError('The legacy product is too large; nothing was stored', problems);
}

/**
 * Runs `work`, which starts price version `version` and makes it live; if it fails after the
 * version was started, the version's items are removed before the error reaches the caller.
 */
async function withStagedVersion<T>(tenant: Tenant, id: number, version: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await discardVersion(tenant, id, version, CLEANUP_BUDGET_MS);
    throw error;
  }
}

export async function createLegacyProduct(tenant: Tenant, input: LegacyProductCreate): Promise<LegacyProduct> {
  const exemption = exemptionProblems({ tax_category: input.tax_category, tax_exemption_reason: input.tax_exemption_reason ?? null });
  if (exemption.length) throw new ValidationError('The legacy product is invalid', exemption);
  const duplicates = duplicateProblems(input.prices, (index) => `prices.${index}`);
  if (duplicates.length) throw new ValidationError('The price table has duplicate rows; nothing was stored', duplicates);
  const now = new Date().toISOString();
  const version = input.prices.length ? 1 : 0;
  const record: LegacyProductRecord = {
    id: 0,
    name: input.name,
    description: input.description ?? null,
    image: input.image ?? null,
    gallery_images: input.gallery_images,
    brands: input.brands,
    tax_category: input.tax_category,
    tax_exemption_reason: input.tax_exemption_reason ?? null,
    ...tableShape(input.prices),
    images: [],
    price_version: version,
    price_count: input.prices.length,
    prices_updated_at: version ? now : null,
    created_at: now,
    updated_at: now,
    price_version_seq: version,
  };
  assertFits(record); // before the id is taken and any price is written
  record.id = await nextId(tenant, 'legacy_product');
  const insert = async () => {
    if (version) await stagePrices(tenant, record.id, version, input.prices);
    await repo.insertLegacyProduct(tenant, record, version || undefined);
  };
  try {
    // A failed create leaves no price items: the staged version is removed (prices.ts).
    await (version ? withStagedVersion(tenant, record.id, version, insert) : insert());
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

/** The cursor's product: the one `starting_after` names (422 when the tenant has none). */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<LegacyProductRecord | undefined> {
  return cursorEntry(id, 'legacy product', (id) => repo.readLegacyProduct(tenant, id));
}

export async function listLegacyProducts(
  tenant: Tenant,
  query: LegacyListQuery,
): Promise<{ items: LegacyProduct[]; hasMore: boolean; total: number }> {
  const after = await cursorOf(tenant, query.starting_after);
  const { items, hasMore, total } = await repo.listLegacyProducts(tenant, { page: query.page, perPage: query.per_page, after });
  const placeholder = await placeholderFor(tenant, items);
  return { items: items.map((record) => presentLegacyProduct(record, placeholder)), hasMore, total };
}

/** Replaces the price table from CSV: validated fully, written invisibly, switched in one write. */
export async function importPrices(tenant: Tenant, id: number, csv: string): Promise<LegacyProduct> {
  const before = await repo.requireLegacyProduct(tenant, id);
  const rows = rowsFromCsv(csv);
  const now = new Date().toISOString();
  const after: LegacyProductRecord = {
    ...before,
    ...tableShape(rows),
    price_version: 0, // allocated below, once the table is known to fit
    price_count: rows.length,
    prices_updated_at: now,
    updated_at: now,
  };
  assertFits(after);
  const version = await repo.allocatePriceVersion(tenant, id);
  after.price_version = version;
  const retireOld = before.price_version ? retiredVersionPut(tenant, id, before.price_version, before) : undefined;
  try {
    await withStagedVersion(tenant, id, version, async () => {
      await stagePrices(tenant, id, version, rows);
      await repo.switchPriceVersion(tenant, before, after, retireOld);
    });
  } catch (error) {
    if (error instanceof PriceTableChanged) {
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
  let price = await repo.readPrice(tenant, id, record.price_version, cell);
  if (price === undefined) {
    // An import may have switched versions between our two reads: look once more at the live one.
    const fresh = await repo.readLegacyProduct(tenant, id, true);
    if (fresh && fresh.price_version !== record.price_version) {
      record = fresh;
      if (cellProblems(record, cell).length) throw invalid(cellProblems(record, cell));
      price = await repo.readPrice(tenant, id, record.price_version, cell);
    }
  }
  if (price === undefined)
    throw invalid([missingCellProblem(cell, await pricedCells(tenant, id, record.price_version, cell.format, cell.color))]);
  // A catalogue price has no buyer: the seller's own (domestic) rate of the product's category.
  const applied = lineTax(record.tax_category, DOMESTIC.treatment, accountTaxSettings(account).rates);
  const { taxes, tax } = saleTaxes([{ tax_category: applied.category, tax_rate: applied.rate, amount: price }]);
  return {
    legacy_product_id: id,
    format: cell.format,
    color: cell.color,
    quantity: cell.quantity,
    pages: cell.pages,
    price: fromMinor(price),
    tax_category: applied.category,
    tax_rate: applied.rate,
    taxes: taxes.map(taxEntryView),
    tax: fromMinor(tax),
    total: fromMinor(price + tax),
    currency: account?.currency ?? 'EUR',
  };
}

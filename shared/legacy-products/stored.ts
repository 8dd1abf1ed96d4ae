/**
 * How a legacy product is stored: one item carrying the option lists derived from its current
 * price table (so GET is one read) and `price_version`, the version of the price items that are
 * live; and the bookkeeping items of those prices — one item per price, one record per version
 * being written or waiting for removal (prices.ts explains the import). See docs/data-model.md.
 */
import type { Tenant } from '#shared/auth/principal';
import { sizeProblem } from '#shared/db/item-size';
import { createdSortKey, legacyPriceSweepKeys, legacyProductKeys, type ItemKey } from '#shared/db/keys';
import type { ErrorDetail } from '#shared/errors';
import { tableName, type TransactItem } from '#shared/db/table';
import { taxCategoryCodec } from '#shared/tax/fields';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import type { PriceRow, TableShape } from './price-table';

export const storedLegacyProduct = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    name: field(c.string),
    description: field(c.nullable(c.string)),
    brands: field(c.list(c.string)),
    /** The option lists of the live price table: formats and colors in the shop's order, quantities and pages ascending. */
    formats: field(c.list(c.string)),
    colors: field(c.list(c.string)),
    quantities: field(c.list(c.int)),
    pages: field(c.list(c.int)),
    images: field(c.list(c.string)).derived().describe('gallery_images, else [image], else the account placeholder — never empty'),
    image: field(c.nullable(c.string)),
    gallery_images: field(c.list(c.string)),
    tax_category: field(taxCategoryCodec).describe('The VAT category its runs are charged as (docs/pricing.md)', 'reduced'),
    tax_exemption_reason: field(c.nullable(c.string)).describe('Why it is exempt: only with tax_category exempt'),
    price_count: field(c.int).describe('Rows in the current price table'),
    prices_updated_at: field(c.nullable(c.timestamp)),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    /** Version of the live price items; 0 = no prices yet. */
    price_version: field(c.int).internal(),
    /** The last price version handed out (an atomic counter: repository.ts allocatePriceVersion). */
    price_version_seq: field(c.int).counter(),
  }))();

export type LegacyProductRecord = RecordOf<typeof storedLegacyProduct.shape>;

export const LEGACY_PRODUCTS = 'legacy_products';

export const legacyProductFromItem: typeof storedLegacyProduct.read = (value) => storedLegacyProduct.read(value);

/** The new product item; its version counter starts at the version it was created with. */
export function legacyProductPut(tenant: Tenant, record: LegacyProductRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...legacyProductKeys.legacyProduct(tenant, record.id),
        entity: 'LEGACY_PRODUCT',
        ...storedLegacyProduct.attributes(record, 'put'),
        price_version_seq: record.price_version,
        gsi1pk: legacyProductKeys.legacyProductsCollection(tenant),
        gsi1sk: createdSortKey(record.created_at, record.id),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * The most a legacy product may take, stored and as JSON (half of DynamoDB's 400 KB item limit,
 * like products). The product item carries the option lists derived from its price table: 100,000
 * rows of 100-character formats and colors could otherwise make it megabytes.
 */
export const MAX_LEGACY_PRODUCT_BYTES = 200 * 1024;

/** The option lists come from the price table: a problem there is the table's. */
const fieldOfView = (name: string): string => (['formats', 'colors', 'quantities', 'pages'].includes(name) ? 'prices' : name);

/** A legacy product over MAX_LEGACY_PRODUCT_BYTES (a 422, checked before any price item is written). */
export function legacyProductSizeProblems(record: LegacyProductRecord): ErrorDetail[] {
  const shown = { ...record, images: record.gallery_images.length ? record.gallery_images : record.image ? [record.image] : [] };
  const problem = sizeProblem(
    'legacy product',
    storedLegacyProduct.attributes(record, 'put'),
    storedLegacyProduct.view(shown),
    MAX_LEGACY_PRODUCT_BYTES,
    fieldOfView,
  );
  return problem ? [problem] : [];
}

/** The formats and colors of a price table: the partitions of one version's price items. */
export type PriceVersionShape = Pick<TableShape, 'formats' | 'colors'>;

/**
 * The record of a price version being written (`writing`) or waiting for removal (`retired`), with
 * the formats and colors whose partitions hold its items. Listed in the staged-price-versions index
 * (gsi3) until it is deleted: the switch deletes the new version's, a cleanup a removed version's.
 */
export function priceVersionItem(
  tenant: Tenant,
  id: number,
  version: number,
  state: 'writing' | 'retired',
  shape: PriceVersionShape,
  now: Date,
): Record<string, unknown> {
  return {
    ...legacyProductKeys.legacyPriceVersion(tenant, id, version),
    entity: 'LEGACY_PRICE_VERSION',
    version,
    state,
    formats: shape.formats,
    colors: shape.colors,
    started_at: now.toISOString(),
    // Listed until the record is deleted: what an import's own cleanup has no time for, the sweeper finishes an hour later.
    ...legacyPriceSweepKeys.staged(id, version, now.toISOString()),
  };
}

/** The transaction item that records a version replaced at the switch, for removal. */
export function retiredVersionPut(tenant: Tenant, id: number, version: number, shape: PriceVersionShape, now = new Date()): TransactItem {
  return { Put: { TableName: tableName(), Item: priceVersionItem(tenant, id, version, 'retired', shape, now) } };
}

/** A price item holds only its key and the price: 72,000 of them are written per import, every byte counts. */
export const priceItem = (tenant: Tenant, id: number, version: number, row: PriceRow): Record<string, unknown> => ({
  ...legacyProductKeys.legacyPrice(tenant, id, version, row),
  price: row.price,
});

/** A price version's record as read back: its own key, its state, when it started, and its partitions. */
export interface PriceVersionRecord {
  key: ItemKey;
  version: number;
  /** `writing` or `retired` (the live version has no record). */
  state: string;
  started_at: string;
  formats: string[];
  colors: string[];
}

export const priceVersionFromItem = (item: Record<string, unknown>): PriceVersionRecord => ({
  key: { pk: String(item.pk), sk: String(item.sk) },
  version: Number(item.version),
  state: String(item.state),
  started_at: String(item.started_at),
  formats: (item.formats as string[] | undefined) ?? [],
  colors: (item.colors as string[] | undefined) ?? [],
});

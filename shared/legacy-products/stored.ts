/**
 * How a legacy product is stored: one item carrying the option lists derived from its current
 * price table (so GET is one read) and `price_version`, the version of the price items that are
 * live (prices.ts stores those items and explains the import). See docs/data-model.md.
 */
import type { Tenant } from '#shared/auth/principal';
import { sizeProblem } from '#shared/db/item-size';
import { createdSortKey, legacyProductKeys } from '#shared/db/keys';
import type { ErrorDetail } from '#shared/errors';
import { tableName, type TransactItem } from '#shared/db/table';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';

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

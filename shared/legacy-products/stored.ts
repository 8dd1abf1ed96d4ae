/**
 * How a legacy product is stored: one item carrying the option lists derived from its current
 * price table (so GET is one read) and `price_version`, the version of the price items that are
 * live (prices.ts stores those items and explains the import). See docs/data-model.md.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, tenantKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';

export const storedLegacyProduct = entity({
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
});

export type LegacyProductRecord = RecordOf<typeof storedLegacyProduct.shape>;

export const LEGACY_PRODUCTS = 'legacy_products';

export const legacyProductFromItem = storedLegacyProduct.read;

/** The new product item; its version counter starts at the version it was created with. */
export function legacyProductPut(tenant: Tenant, record: LegacyProductRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.legacyProduct(tenant, record.id),
        entity: 'LEGACY_PRODUCT',
        ...storedLegacyProduct.attributes(record, 'put'),
        price_version_seq: record.price_version,
        gsi1pk: tenantKeys.legacyProductsCollection(tenant),
        gsi1sk: createdSortKey(record.created_at, record.id),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

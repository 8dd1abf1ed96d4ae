/**
 * How a product is stored: the product item (its fields listed once below; money in integer
 * minor units; stock as three flat attributes so that a conditional decrement can name them)
 * and the two list entries that give it four more index orderings. Which list partitions and
 * counters a product belongs to follows from its name, category and state only — see
 * docs/data-model.md.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, nameSortKey, tenantKeys, type ProductListState } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { taxCategoryCodec } from '#shared/tax/fields';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';

const optionValue = /* @__PURE__ */ (() =>
  c.object({
    code: field(c.string),
    name: field(c.string),
    price_delta: field(c.money),
    price_factor: field(c.nullable(c.number)),
  }))();

const option = /* @__PURE__ */ (() =>
  c.object({
    code: field(c.string),
    name: field(c.string),
    required: field(c.withDefault(c.boolean, true)),
    default: field(c.nullable(c.string)),
    values: field(c.list(optionValue)),
  }))();

export const storedProduct = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    name: field(c.string),
    description: field(c.nullable(c.string)),
    category: field(c.string),
    is_active: field(c.boolean),
    min_qty: field(c.int),
    max_qty: field(c.nullable(c.int)),
    unit: field(c.string),
    base_price: field(c.money),
    price_tiers: field(c.list(c.object({ min_qty: field(c.int), unit_price: field(c.money) }))),
    options: field(c.list(option)),
    setup_fee: field(c.money),
    production_days: field(c.int),
    tax_category: field(taxCategoryCodec).describe('The VAT category its lines are charged as (docs/pricing.md)', 'standard'),
    tax_exemption_reason: field(c.nullable(c.string)).describe('Why it is exempt: only with tax_category exempt'),
    // Written when the product is created; later only the stock fields a request sends (so an edit
    // of the name never overwrites a concurrent order's decrement) and the stock rules' own updates.
    stock: field(c.object({ tracked: field(c.boolean), quantity: field(c.int), low_threshold: field(c.int) }, { id: 'ProductStock' }))
      .flat()
      .fixed(),
    images: field(c.list(c.string)),
    hs_code: field(c.nullable(c.string)).describe('Customs: the Harmonized System code (6–10 digits), copied onto order lines', '491199'),
    origin_country: field(c.nullable(c.string)).describe(
      'Customs: the country of origin (ISO 3166-1 alpha-2), copied onto order lines',
      'DE',
    ),
    customs_description: field(c.nullable(c.string)).describe(
      "Customs: what the goods are, for a customs declaration (default: the line's description)",
    ),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.withDefault(c.int, 1)).fixed().internal(),
    /** Orders referencing the product (kept by the orders' transactions); > 0 turns a delete into an archive. */
    order_refs: field(c.int).counter(),
  }))();

/** A product as the domain sees it: money in minor units. */
export type ProductRecord = RecordOf<typeof storedProduct.shape>;
export type StockState = ProductRecord['stock'];

type Item = Record<string, unknown>;

export const PRODUCTS = 'products';

const stateOf = (record: Pick<ProductRecord, 'is_active'>): ProductListState => (record.is_active ? 'active' : 'inactive');

export const productFromItem: typeof storedProduct.read = (value) => storedProduct.read(value);

/** The index attributes of the product item: all products newest first (gsi1), one state newest first (gsi2). */
function indexAttributes(tenant: Tenant, record: ProductRecord): Item {
  return {
    gsi1pk: tenantKeys.productsCollection(tenant, 'all'),
    gsi1sk: createdSortKey(record.created_at, record.id),
    gsi2pk: tenantKeys.productsCollection(tenant, stateOf(record)),
    gsi2sk: createdSortKey(record.created_at, record.id),
  };
}

/** The new product item. */
export function productPut(tenant: Tenant, record: ProductRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.product(tenant, record.id),
        entity: 'PRODUCT',
        ...storedProduct.attributes(record, 'put'),
        ...indexAttributes(tenant, record),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** What an update writes: the product's own attributes and index keys (not stock, not order_refs). */
export const productChanges = (tenant: Tenant, record: ProductRecord): Item => ({
  ...storedProduct.attributes(record, 'update'),
  ...indexAttributes(tenant, record),
});

/** The stock attributes for the stock fields given (an update writes only those a request sent). */
export const stockAttributes = (stock: Partial<StockState>): Item =>
  Object.fromEntries(
    Object.entries(stock)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [`stock_${name}`, value]),
  );

/** True when the list entries (name, category or state) must be rewritten. */
export const listingChanged = (before: ProductRecord, after: ProductRecord): boolean =>
  before.name !== after.name || before.category.toLowerCase() !== after.category.toLowerCase() || before.is_active !== after.is_active;

/** Puts of the two list entries: by name (all / state) and by category in name order (all / state). */
export function listEntryPuts(tenant: Tenant, record: ProductRecord): TransactItem[] {
  const state = stateOf(record);
  const base = { entity: 'PRODUCT_LIST_ENTRY', product_id: record.id };
  const entry = (ordering: 'BY_NAME' | 'BY_CATEGORY', all: string, ofState: string): TransactItem => ({
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.productListEntry(tenant, record.id, ordering),
        ...base,
        gsi1pk: all,
        gsi1sk: nameSortKey(record.name, record.id),
        gsi2pk: ofState,
        gsi2sk: nameSortKey(record.name, record.id),
      },
    },
  });
  return [
    entry('BY_NAME', tenantKeys.productsByName(tenant, 'all'), tenantKeys.productsByName(tenant, state)),
    entry(
      'BY_CATEGORY',
      tenantKeys.productsByCategory(tenant, 'all', record.category),
      tenantKeys.productsByCategory(tenant, state, record.category),
    ),
  ];
}

export const listEntryDeletes = (tenant: Tenant, id: number): TransactItem[] =>
  (['BY_NAME', 'BY_CATEGORY'] as const).map((ordering) => ({
    Delete: { TableName: tableName(), Key: tenantKeys.productListEntry(tenant, id, ordering) },
  }));

/** Names of the counter items a product counts in (list totals without counting). */
export function countersOf(record: Pick<ProductRecord, 'is_active' | 'category'>): string[] {
  const state = stateOf(record);
  const category = record.category.toLowerCase();
  return [PRODUCTS, `${PRODUCTS}:${state}`, `${PRODUCTS}:category:all:${category}`, `${PRODUCTS}:category:${state}:${category}`];
}

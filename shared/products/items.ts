/**
 * How a product is stored: the product item (money in integer minor units, stock as three flat
 * attributes so that a conditional decrement can name them) and the two list entries that give it
 * four more index orderings. Which list partitions and counters a product belongs to follows from
 * its name, category and state only — see docs/data-model.md.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, tenantKeys, type ProductListState } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { padId } from '#shared/ids';
import type { PricingOption, PricingProduct, PricingTier } from '#shared/pricing/product-price';

export interface StockState {
  tracked: boolean;
  quantity: number;
  low_threshold: number;
}

/** A product as the domain sees it: money in minor units. */
export interface ProductRecord extends PricingProduct {
  name: string;
  description: string | null;
  category: string;
  is_active: boolean;
  stock: StockState;
  images: string[];
  created_at: string;
  updated_at: string;
  version: number;
  /** Orders referencing the product (kept by the orders slice); > 0 turns a delete into an archive. */
  order_refs: number;
}

type Item = Record<string, unknown>;

export const PRODUCTS = 'products';

const stateOf = (record: Pick<ProductRecord, 'is_active'>): ProductListState => (record.is_active ? 'active' : 'inactive');

export function productFromItem(item: Item): ProductRecord {
  return {
    id: Number(item.id),
    name: String(item.name),
    description: item.description === undefined || item.description === null ? null : String(item.description),
    category: String(item.category),
    is_active: item.is_active === true,
    min_qty: Number(item.min_qty),
    max_qty: item.max_qty === undefined || item.max_qty === null ? null : Number(item.max_qty),
    unit: String(item.unit),
    base_price: Number(item.base_price),
    price_tiers: ((item.price_tiers as Item[] | undefined) ?? []).map((tier): PricingTier => ({ min_qty: Number(tier.min_qty), unit_price: Number(tier.unit_price) })),
    options: ((item.options as Item[] | undefined) ?? []).map(
      (option): PricingOption => ({
        code: String(option.code),
        name: String(option.name),
        required: option.required !== false,
        default: option.default === undefined || option.default === null ? null : String(option.default),
        values: ((option.values as Item[] | undefined) ?? []).map((value) => ({
          code: String(value.code),
          name: String(value.name),
          price_delta: Number(value.price_delta ?? 0),
          price_factor: value.price_factor === undefined || value.price_factor === null ? null : Number(value.price_factor),
        })),
      }),
    ),
    setup_fee: Number(item.setup_fee ?? 0),
    production_days: Number(item.production_days ?? 0),
    stock: {
      tracked: item.stock_tracked === true,
      quantity: Number(item.stock_quantity ?? 0),
      low_threshold: Number(item.stock_low_threshold ?? 0),
    },
    images: (item.images as string[] | undefined) ?? [],
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
    version: Number(item.version ?? 1),
    order_refs: Number(item.order_refs ?? 0),
  };
}

const nameSortKey = (record: Pick<ProductRecord, 'name' | 'id'>): string => `${record.name.toLowerCase()}#${padId(record.id)}`;

/** The product's own attributes (not stock, not order_refs: other writers own those), index keys included. */
export function productAttributes(tenant: Tenant, record: ProductRecord): Item {
  return {
    name: record.name,
    description: record.description,
    category: record.category,
    is_active: record.is_active,
    min_qty: record.min_qty,
    max_qty: record.max_qty,
    unit: record.unit,
    base_price: record.base_price,
    price_tiers: record.price_tiers,
    options: record.options,
    setup_fee: record.setup_fee,
    production_days: record.production_days,
    images: record.images,
    updated_at: record.updated_at,
    // Main item: all products newest first (gsi1), one state newest first (gsi2).
    gsi1pk: tenantKeys.productsCollection(tenant, 'all'),
    gsi1sk: createdSortKey(record.created_at, record.id),
    gsi2pk: tenantKeys.productsCollection(tenant, stateOf(record)),
    gsi2sk: createdSortKey(record.created_at, record.id),
  };
}

export const stockAttributes = (stock: Partial<StockState>): Item => ({
  stock_tracked: stock.tracked,
  stock_quantity: stock.quantity,
  stock_low_threshold: stock.low_threshold,
});

/** True when the list entries (name, category or state) must be rewritten. */
export const listingChanged = (before: ProductRecord, after: ProductRecord): boolean =>
  before.name !== after.name || before.category.toLowerCase() !== after.category.toLowerCase() || before.is_active !== after.is_active;

/** Puts of the two list entries: by name (all / state) and by category in name order (all / state). */
export function listEntryPuts(tenant: Tenant, record: ProductRecord): TransactItem[] {
  const state = stateOf(record);
  const base = { entity: 'PRODUCT_LIST_ENTRY', product_id: record.id };
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...tenantKeys.productListEntry(tenant, record.id, 'BY_NAME'),
          ...base,
          gsi1pk: tenantKeys.productsByName(tenant, 'all'),
          gsi1sk: nameSortKey(record),
          gsi2pk: tenantKeys.productsByName(tenant, state),
          gsi2sk: nameSortKey(record),
        },
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...tenantKeys.productListEntry(tenant, record.id, 'BY_CATEGORY'),
          ...base,
          gsi1pk: tenantKeys.productsByCategory(tenant, 'all', record.category),
          gsi1sk: nameSortKey(record),
          gsi2pk: tenantKeys.productsByCategory(tenant, state, record.category),
          gsi2sk: nameSortKey(record),
        },
      },
    },
  ];
}

export const listEntryDeletes = (tenant: Tenant, id: number): TransactItem[] =>
  (['BY_NAME', 'BY_CATEGORY'] as const).map((ordering) => ({ Delete: { TableName: tableName(), Key: tenantKeys.productListEntry(tenant, id, ordering) } }));

/** Names of the counter items a product counts in (list totals without counting). */
export function countersOf(record: Pick<ProductRecord, 'is_active' | 'category'>): string[] {
  const state = stateOf(record);
  const category = record.category.toLowerCase();
  return [PRODUCTS, `${PRODUCTS}:${state}`, `${PRODUCTS}:category:all:${category}`, `${PRODUCTS}:category:${state}:${category}`];
}

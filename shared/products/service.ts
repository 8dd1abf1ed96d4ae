/**
 * Product operations. Writes re-read and retry when the product changed under them (optimistic
 * locking on `version`). Publishable keys (storefronts) see active products only: an inactive
 * product is a 404 for them. The catalogue has no product.* events, so product writes emit none.
 */
import { getAccount } from '#shared/accounts/repository';
import { accountTaxSettings } from '#shared/accounts/tax';
import type { Principal, Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { NotFoundError, ValidationError } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { fromMinor } from '#shared/money';
import type { AppliedTaxCategory } from '#shared/tax/categories';
import { DOMESTIC, lineTax, saleTaxes } from '#shared/tax/sale';
import { exemptionProblems } from '#shared/tax/exemption';
import { taxEntryView } from '#shared/tax/view';
import { priceProduct, type PriceQuote, type PricingOption } from '#shared/pricing/product-price';
import type { ProductFilter } from './repository';
import * as repo from './repository';
import { productProblems, productSizeProblems } from './rules';
import type { CalculateBody, PriceQuoteView, Product, ProductCreate, ProductDeleted, ProductListQuery, ProductUpdate } from './schema';
import { storedProduct, type ProductRecord, type StockState } from './stored';

type Viewer = Pick<Principal, 'kind'>;

const withRetry = <T>(operation: () => Promise<T>): Promise<T> => retryOnVersionConflict('product', operation);

const presentProduct: typeof storedProduct.view = (value) => storedProduct.view(value);

function presentQuote(quote: PriceQuote, category: AppliedTaxCategory): PriceQuoteView {
  const { taxes } = saleTaxes([{ tax_category: category, tax_rate: quote.tax_rate, amount: quote.subtotal }]);
  return {
    product_id: quote.product_id,
    quantity: quote.quantity,
    unit_price: fromMinor(quote.unit_price),
    setup_fee: fromMinor(quote.setup_fee),
    subtotal: fromMinor(quote.subtotal),
    tax_category: category,
    tax_rate: quote.tax_rate,
    taxes: taxes.map(taxEntryView),
    tax: fromMinor(quote.tax),
    total: fromMinor(quote.total),
    currency: quote.currency,
    breakdown: quote.breakdown.map((line) => ({ label: line.label, amount: fromMinor(line.amount) })),
    production_days: quote.production_days,
  };
}

type OptionInput = NonNullable<ProductCreate['options']>[number];

const normalizeOptions = (options: OptionInput[]): PricingOption[] =>
  options.map((option) => ({
    code: option.code,
    name: option.name,
    required: option.required,
    default: option.default ?? null,
    values: option.values.map((value) => ({
      code: value.code,
      name: value.name,
      price_delta: value.price_delta,
      price_factor: value.price_factor ?? null,
    })),
  }));

const definedStock = (stock: Partial<StockState> | undefined): Partial<StockState> =>
  Object.fromEntries(Object.entries(stock ?? {}).filter(([, value]) => value !== undefined));

function assertConsistent(record: ProductRecord): void {
  const problems = [...productProblems(record), ...exemptionProblems(record), ...productSizeProblems(record)];
  if (problems.length) throw new ValidationError('The product is inconsistent', problems);
}

/** Storefronts and their signed-in customers see the active catalogue only; the merchant's keys see it all. */
const shopper = (viewer: Viewer): boolean => viewer.kind !== 'secret';
const hiddenFrom = (viewer: Viewer, record: ProductRecord): boolean => shopper(viewer) && !record.is_active;

export async function createProduct(tenant: Tenant, input: ProductCreate): Promise<Product> {
  const now = new Date().toISOString();
  const record: ProductRecord = {
    id: 0,
    name: input.name,
    description: input.description ?? null,
    category: input.category,
    is_active: input.is_active,
    min_qty: input.min_qty,
    max_qty: input.max_qty ?? null,
    unit: input.unit,
    base_price: input.base_price,
    price_tiers: input.price_tiers,
    options: normalizeOptions(input.options),
    setup_fee: input.setup_fee,
    production_days: input.production_days,
    tax_category: input.tax_category,
    tax_exemption_reason: input.tax_exemption_reason ?? null,
    stock: { tracked: false, quantity: 0, low_threshold: 0, ...definedStock(input.stock) },
    images: input.images,
    hs_code: input.hs_code ?? null,
    origin_country: input.origin_country ?? null,
    customs_description: input.customs_description ?? null,
    created_at: now,
    updated_at: now,
    version: 1,
    order_refs: 0,
  };
  assertConsistent(record); // before the id is taken: a refused product leaves no gap
  record.id = await nextId(tenant, 'product');
  await repo.insertProduct(tenant, record);
  return presentProduct(record);
}

export async function getProduct(tenant: Tenant, viewer: Viewer, id: number): Promise<Product> {
  const record = await repo.requireProduct(tenant, id);
  if (hiddenFrom(viewer, record)) throw new NotFoundError('product', id);
  return presentProduct(record);
}

function merged(before: ProductRecord, changes: ProductUpdate): ProductRecord {
  const after: ProductRecord = {
    ...before,
    stock: { ...before.stock, ...definedStock(changes.stock) },
    updated_at: new Date().toISOString(),
  };
  const { stock: _stock, options, ...plain } = changes;
  for (const [field, value] of Object.entries(plain)) {
    if (value !== undefined) (after as unknown as Record<string, unknown>)[field] = value;
  }
  if (options !== undefined) after.options = normalizeOptions(options);
  return after;
}

export async function updateProduct(tenant: Tenant, id: number, changes: ProductUpdate): Promise<Product> {
  return withRetry(async () => {
    const before = await repo.requireProduct(tenant, id);
    const after = merged(before, changes);
    assertConsistent(after);
    await repo.saveProduct(tenant, before, after, definedStock(changes.stock));
    return presentProduct({ ...after, version: before.version + 1 });
  });
}

/** Deletes an unreferenced product; archives (is_active false) one that orders reference. */
export async function deleteProduct(tenant: Tenant, id: number): Promise<ProductDeleted> {
  return withRetry(async () => {
    const record = await repo.requireProduct(tenant, id);
    if (record.order_refs > 0) {
      const archived: ProductRecord = record.is_active ? { ...record, is_active: false, updated_at: new Date().toISOString() } : record;
      if (record.is_active) await repo.saveProduct(tenant, record, archived);
      return { id, deleted: false as const, archived: true as const, product: presentProduct(archived) };
    }
    // A failed condition means the version moved or an order now references it: re-read decides.
    await repo.deleteProduct(tenant, record);
    return { id, deleted: true as const };
  });
}

/**
 * The cursor's product: the one `starting_after` names — 422 when the tenant has none. A product
 * archived since it ended a storefront's page still positions the storefront's next page (by its
 * place in the order), so a walk of the catalogue never breaks; that an archived id exists is no
 * secret worth a broken walk (ids are a tenant's sequence).
 */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<ProductRecord | undefined> {
  return cursorEntry(id, 'product', (id) => repo.readProduct(tenant, id));
}

/** A page of products: `total` exact from counters, or counted up to a cap for a name search (`capped`). */
export interface ProductPage {
  items: Product[];
  total: number;
  capped: boolean;
  hasMore: boolean;
}

export async function listProducts(tenant: Tenant, viewer: Viewer, query: ProductListQuery): Promise<ProductPage> {
  const after = await cursorOf(tenant, query.starting_after);
  if (shopper(viewer) && query.is_active === false) return { items: [], total: 0, capped: false, hasMore: false };
  const state: ProductFilter['state'] =
    shopper(viewer) || query.is_active === true ? 'active' : query.is_active === false ? 'inactive' : 'all';
  const result = await repo.listProducts(
    tenant,
    { state, category: query.category, q: query.q },
    { page: query.page, perPage: query.per_page, after },
  );
  return { ...result, items: result.items.map(presentProduct) };
}

export async function calculatePrice(tenant: Tenant, viewer: Viewer, id: number, body: CalculateBody): Promise<PriceQuoteView> {
  // Two independent reads in parallel: the product and the account's currency and tax rates.
  const [record, account] = await Promise.all([repo.readProduct(tenant, id), getAccount(tenant.accountId)]);
  if (!record || hiddenFrom(viewer, record)) throw new NotFoundError('product', id);
  if (!record.is_active) {
    throw new ValidationError('The product is archived and cannot be priced', [
      { field: 'id', message: 'product is not active (is_active is false)' },
    ]);
  }
  // A catalogue price has no buyer: the seller's own (domestic) rate of the product's category.
  const applied = lineTax(record.tax_category, DOMESTIC.treatment, accountTaxSettings(account).rates);
  const outcome = priceProduct(
    record,
    { quantity: body.quantity, options: body.options },
    { currency: account?.currency ?? 'EUR', tax_rate: applied.rate },
  );
  if (!outcome.ok) throw new ValidationError('The price cannot be calculated for this request', outcome.problems);
  return presentQuote(outcome.quote, applied.category);
}

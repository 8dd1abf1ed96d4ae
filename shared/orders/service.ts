/**
 * Orders: create, read, list, change. The server prices every line and computes every total.
 * Each write reads what it needs once, decides with pure rules (lines.ts, addresses.ts,
 * status.ts, the stock plan of shared/products/stock.ts), and hands the repository everything
 * for its one transaction. When that transaction finds the order or its stock changed since the
 * read (a VersionConflict), the operation reads again and decides again; without If-Match a
 * second, concurrent "confirm" thus meets `confirmed` and gets 409 invalid_transition, with
 * If-Match a stale version is 412 and nothing changes.
 */
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { checkLineFiles, MAX_FILES_PER_ORDER, withFileCopies } from '#shared/files/line-files';
import { priceLegacyLines } from '#shared/legacy-products/line-prices';
import { readProducts } from '#shared/products/repository';
import { planStock } from '#shared/products/stock';
import type { ProductRecord } from '#shared/products/stored';
import { addressChoices, needsCustomerAddresses, resolveAddress } from './addresses';
import { offerOrThrow, readOffer, readOwner } from './offers';
import { createPlannedOrder, takeOrderNumber } from './creation';
import { inputProductIds, legacyCellsOf, orderTotals, priceLines, pricingOf, productIdsOf, shippingTaxOf, stockLinesOf } from './lines';
import { assertIfMatch, type IfMatch } from './preconditions';
import * as repo from './repository';
import { assertArtworkReplaceable, lineArtworkChange, orderChangeParts, type Part } from './transitions';
import type { CustomerOrdersQuery, Order, OrderCreate, OrderLineInput, OrderListQuery, OrderUpdate } from './schema';
import { assertTransition } from './status';
import { storedOrder, type OrderAddressRecord, type OrderLineRecord, type OrderRecord } from './stored';

const present: typeof storedOrder.view = (value) => storedOrder.view(value);

/**
 * Attempts of an order write whose stock moved under it. Each attempt's transaction is itself
 * sent at most TRANSACTION_ATTEMPTS times (shared/db/transactions.ts): at most 18 TransactWriteItems
 * calls for one request, in the worst case of heavy contention on one product.
 */
const ORDER_WRITE_ATTEMPTS = 6;

// ---- Reads shared by create and update -------------------------------------------------------
// Strongly consistent: integrations create a customer or a product and order it the next moment;
// an eventually consistent read could miss it and refuse a valid order.

const productsOf = (tenant: Tenant, lines: readonly OrderLineInput[]): Promise<Map<number, ProductRecord>> =>
  readProducts(tenant, inputProductIds(lines));

function assertValid(problems: ErrorDetail[]): void {
  if (problems.length) throw new ValidationError('The order is invalid', problems);
}

// ---- Create -----------------------------------------------------------------------------------

/** `POST /v1/orders`: the offer read and priced (422 with every problem before a number is taken), then the one creation (creation.ts). */
export async function createOrder(tenant: Tenant, input: OrderCreate, options: { fileOwner?: number } = {}): Promise<Order> {
  const read = await readOffer(tenant, input, options);
  const offer = offerOrThrow(read, 'order');
  const at = new Date();
  const numbered = await takeOrderNumber(tenant, at);
  const draft = { ...offer, due_date: input.due_date ?? null, quote_id: null };
  return present(await createPlannedOrder(tenant, draft, numbered, read.products, { at }));
}

// ---- Read and list ----------------------------------------------------------------------------

/** An order; with `reader` (a customer token's customer), only one of that customer's — another is 404. */
export async function getOrder(tenant: Tenant, id: number, reader?: number): Promise<Order> {
  const order = await repo.requireOrder(tenant, id);
  if (reader !== undefined && order.customer.id !== reader) throw new NotFoundError('order', id);
  return present(order);
}

/** The cursor's position: the order named by `starting_after` (422 when the tenant has none). */
async function cursorOf(tenant: Tenant, id: number | undefined): Promise<repo.OrderFilter['before']> {
  const anchor = await cursorEntry(id, 'order', (id) => repo.readOrder(tenant, id));
  return anchor && { created_at: anchor.created_at, id: anchor.id };
}

/** A page of orders: `total` exact from counters, or counted up to a cap over a date range (`capped`). */
export interface OrderPage {
  items: Order[];
  total: number;
  capped: boolean;
  hasMore: boolean;
}

export async function listOrders(tenant: Tenant, query: OrderListQuery): Promise<OrderPage> {
  const before = await cursorOf(tenant, query.starting_after);
  const filter = { status: query.status, customerId: query.customer_id, from: query.created_from, to: query.created_to, before };
  const result = await repo.listOrders(tenant, filter, { page: query.page, perPage: query.per_page });
  return { ...result, items: result.items.map(present) };
}

/** A customer's orders (404 for an unknown customer); totals from the customer's counters. */
export async function listCustomerOrders(tenant: Tenant, customerId: number, query: CustomerOrdersQuery): Promise<OrderPage> {
  // Both read at once, but judged in order: an unknown customer is a 404 whatever the cursor.
  const cursor = cursorOf(tenant, query.starting_after);
  cursor.catch(() => undefined);
  const counts = await repo.customerOrderCounts(tenant, customerId);
  if (!counts) throw new NotFoundError('customer', customerId);
  const before = await cursor;
  const filter = { status: query.status, customerId, from: query.created_from, to: query.created_to, before };
  const result = await repo.listOrders(tenant, filter, { page: query.page, perPage: query.per_page }, counts);
  return { ...result, items: result.items.map(present) };
}

// ---- Change -----------------------------------------------------------------------------------
// Notes, due date and addresses at any time; status along the machine (status.ts); lines and
// shipping only while pending (totals and stock recomputed).

/** The rules that depend on the order's current state; checked on every (re-)read. */
function assertAllowed(order: OrderRecord, changes: OrderUpdate, ifMatch: IfMatch): void {
  // The transition is judged first: of two concurrent transitions the loser learns why it lost.
  if (changes.status !== undefined) assertTransition(order.status, changes.status);
  const fixed = (['items', 'shipping'] as const).filter((field) => changes[field] !== undefined);
  if (fixed.length && order.status !== 'pending') {
    throw new ConflictError(
      `Lines and shipping can only change while the order is pending; it is ${order.status}`,
      fixed.map((field) => ({ field, message: `cannot change once the order is ${order.status}` })),
    );
  }
  assertIfMatch(ifMatch, order.version);
}

/** What the request resolves to: priced lines (with the products they were priced from) and address copies. */
interface Prepared {
  lines?: { records: OrderLineRecord[]; products: Map<number, ProductRecord> };
  shipping_address?: OrderAddressRecord | null;
  billing_address?: OrderAddressRecord | null;
}

async function prepare(tenant: Tenant, order: OrderRecord, changes: OrderUpdate): Promise<Prepared> {
  const choices = addressChoices(changes);
  const [products, owner, files, legacy] = await Promise.all([
    changes.items ? productsOf(tenant, changes.items) : undefined,
    needsCustomerAddresses(choices) ? readOwner(tenant, order.customer.id) : undefined,
    changes.items ? checkLineFiles(tenant, changes.items) : undefined,
    changes.items ? priceLegacyLines(tenant, legacyCellsOf(changes.items)) : undefined,
  ]);
  const problems: ErrorDetail[] = [];
  const prepared: Prepared = {};
  if (changes.items && products && files) {
    // Priced with the order's own currency, tax treatment and rates, fixed when it was created.
    const priced = priceLines(changes.items, products, pricingOf(order), 'items', legacy);
    problems.push(...priced.problems, ...files.problems);
    prepared.lines = { records: withFileCopies(priced.lines, files.copies), products };
  }
  prepared.shipping_address = resolveAddress('shipping', choices.shipping, owner, false, problems);
  prepared.billing_address = resolveAddress('billing', choices.billing, owner, false, problems);
  assertValid(problems);
  return prepared;
}

function apply(order: OrderRecord, changes: OrderUpdate, prepared: Prepared): OrderRecord {
  const after: OrderRecord = { ...order, updated_at: new Date().toISOString(), version: order.version + 1 };
  if (changes.status !== undefined) after.status = changes.status;
  // A cancel gives back the stock it held (the repository writes that) and keeps nothing.
  if (after.status === 'cancelled') after.reserved = [];
  if (changes.notes !== undefined) after.notes = changes.notes;
  if (changes.due_date !== undefined) after.due_date = changes.due_date;
  if (prepared.shipping_address !== undefined) after.shipping_address = prepared.shipping_address;
  if (prepared.billing_address !== undefined) after.billing_address = prepared.billing_address;
  if (prepared.lines) after.items = prepared.lines.records;
  if (changes.shipping !== undefined) after.shipping = changes.shipping;
  if (prepared.lines || changes.shipping !== undefined)
    Object.assign(after, orderTotals(after.items, shippingTaxOf(after, after.shipping)));
  return after;
}

/** +1 for products the new lines add, −1 for products they drop (one reference per order and product). */
function referenceMoves(before: readonly OrderLineRecord[], after: readonly OrderLineRecord[]): Map<number, number> {
  const old = new Set(productIdsOf(before));
  const now = new Set(productIdsOf(after));
  return new Map([
    ...[...now].filter((id) => !old.has(id)).map((id): [number, number] => [id, 1]),
    ...[...old].filter((id) => !now.has(id)).map((id): [number, number] => [id, -1]),
  ]);
}

/**
 * A change of an order as decided from the order read now (strongly consistent): the order after
 * it and, when the lines change (a pending order's), the parts that write it with its stock
 * difference. A change without new lines is written by the process layer with what production
 * adds to it (shared/fulfilment/order-changes.ts); orders never ask production themselves.
 */
export type PreparedChange =
  { kind: 'lines'; before: OrderRecord; after: OrderRecord; parts: Part[] } | { kind: 'other'; before: OrderRecord; after: OrderRecord };

export async function prepareOrderChange(tenant: Tenant, id: number, changes: OrderUpdate, ifMatch: IfMatch): Promise<PreparedChange> {
  const order = await repo.requireOrder(tenant, id, true);
  assertAllowed(order, changes, ifMatch);
  const prepared = await prepare(tenant, order, changes);
  const after = apply(order, changes, prepared);
  if (!prepared.lines) return { kind: 'other', before: order, after };
  // Only the difference to what the order holds moves; references move for products added or dropped.
  const stock = planStock(tenant, prepared.lines.products, stockLinesOf(after.items), {
    release: order.reserved,
    orderRefs: referenceMoves(order.items, after.items),
  });
  const stored: OrderRecord = { ...after, reserved: stock.reserved };
  return {
    kind: 'lines',
    before: order,
    after: stored,
    parts: [...orderChangeParts(tenant, order, stored, { by: 'hand' }), ...stock.parts, ...stock.events],
  };
}

/**
 * A line's artwork replaced on a confirmed or in-production order, decided on the order read now
 * (strongly consistent): the files pass the checks of an order's creation (shared/files/line-files.ts,
 * 422 naming `file_ids.<n>`), and the change is of kind "artwork" (transitions.ts). The process
 * layer adds what production and proofs do with it (shared/fulfilment/line-artwork.ts).
 */
export async function prepareLineArtworkChange(
  tenant: Tenant,
  id: number,
  lineId: number,
  fileIds: readonly number[],
  ifMatch: IfMatch,
): Promise<{ before: OrderRecord; after: OrderRecord; parts: Part[] }> {
  const order = await repo.requireOrder(tenant, id, true);
  assertArtworkReplaceable(order, lineId);
  assertIfMatch(ifMatch, order.version);
  const others = order.items.filter((line) => line.id !== lineId).reduce((sum, line) => sum + line.file_ids.length, 0);
  if (others + fileIds.length > MAX_FILES_PER_ORDER) {
    assertValid([
      {
        field: 'file_ids',
        message: `the order's lines would name ${others + fileIds.length} files; an order takes at most ${MAX_FILES_PER_ORDER}`,
      },
    ]);
  }
  const checked = await checkLineFiles(tenant, [{ file_ids: fileIds }], { field: 'line' });
  assertValid(checked.problems.map((problem) => ({ ...problem, field: problem.field.replace(/^line\.0\./, '') })));
  const [line] = withFileCopies([{ file_ids: [...fileIds] }], checked.copies);
  const { after, parts } = lineArtworkChange(tenant, order, lineId, line!);
  return { before: order, after, parts };
}

/** Attempts of a change of an order that met another change (its order or its stock moved): read and decide again. */
export const changeWithRetries = <T>(change: () => Promise<T>): Promise<T> => retryOnVersionConflict('order', change, ORDER_WRITE_ATTEMPTS);

export { present as presentOrder };

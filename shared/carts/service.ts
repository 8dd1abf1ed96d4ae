/**
 * Carts (docs/carts.md): session carts addressed by a random id (the capability), one cart per
 * signed-in customer, lines priced by the existing calculators when added and priced again on
 * every read (pricing.ts), a merge of a session cart into the customer's in one transaction, and a
 * checkout that creates the order through the orders' own creation (`createOrder`, joined by the
 * cart's close in the same transaction). Every write is conditional on the revision read and
 * retried on a VersionConflict.
 */
import { retry } from '#shared/async/retry';
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { transactWrite } from '#shared/db/transactions';
import { ConflictError, NotFoundError, ValidationError, VersionConflict, type ErrorDetail } from '#shared/errors';
import { randomToken } from '#shared/ids';
import type { LegacyLinePrice } from '#shared/legacy-products/line-prices';
import { missingCellProblem } from '#shared/legacy-products/lookup';
import { pricedCells } from '#shared/legacy-products/prices';
import { fromMinor } from '#shared/money';
import { MAX_ORDER_LINES, type OrderCreate, type Order } from '#shared/orders/schema';
import { createOrder, getOrder } from '#shared/orders/service';
import { priceCart, priceLine } from './line-pricing';
import {
  changeMessage,
  priceCartWith,
  priceProductLine,
  revisionOf,
  specOf,
  versionOf,
  type Catalogue,
  type LinePrice,
  type LinePricer,
  type LineSpec,
  type PricedLine,
} from './pricing';
import { mergeLines } from './merge';
import * as repo from './repository';
import type { Cart, CartLineInput, CartLineUpdate } from './schema';
import { expiryOf, MAX_CART_LINES, type CartLineRecord, type CartRecord } from './stored';

/**
 * Which cart, and how it is read: a session cart by its id, or a customer's own (`sessionCart`,
 * `customerCart`; a handler's bundle carries only the reader it uses).
 */
export interface CartRef {
  load(tenant: Tenant, now: Date): Promise<CartRecord>;
}

/** A session cart; a merged one is gone for everyone but a second merge, which is told why. */
export const sessionCart = (id: string): CartRef => ({
  load: async (tenant, now) => {
    const cart = await repo.readSessionCart(tenant, id, now);
    if (!cart || cart.status === 'merged') throw new NotFoundError('cart', id);
    return cart;
  },
});

/** The customer's cart: created on first use, so an empty one until then. */
export const customerCart = (customerId: number): CartRef => ({
  load: (tenant, now) => repo.readCustomerCart(tenant, customerId, now),
});

// ---- Presenting -------------------------------------------------------------------------------

const iso = (seconds: number): string | null => (seconds > 0 ? new Date(seconds * 1000).toISOString() : null);

function lineView(priced: PricedLine): Cart['items'][number] {
  const { line } = priced;
  return {
    id: line.id,
    kind: line.kind,
    product_id: line.product_id,
    legacy_product_id: line.legacy_product_id,
    name: priced.name,
    options: line.options,
    format: line.format,
    color: line.color,
    pages: line.pages,
    quantity: line.quantity,
    file_ids: line.file_ids,
    note: line.note,
    unit_price: fromMinor(priced.unit_price),
    setup_fee: fromMinor(priced.setup_fee),
    total: fromMinor(priced.total),
    price_changed: priced.price_changed,
    previous_unit_price: priced.price_changed ? fromMinor(line.unit_price) : null,
    unavailable: !priced.available,
    unavailable_reason: priced.reason,
  };
}

/** The cart as answers show it: priced now, with its version (revision + price fingerprint). */
export function presentCart(cart: CartRecord, catalogue: Catalogue): Cart {
  const priced = priceCart(cart, catalogue);
  const stored = cart.revision > 0;
  return {
    id: cart.id,
    status: cart.status === 'checked_out' ? 'checked_out' : 'open',
    customer_id: cart.customer_id,
    items: priced.lines.map(lineView),
    item_count: cart.items.length,
    subtotal: fromMinor(priced.subtotal),
    tax: fromMinor(priced.tax),
    total: fromMinor(priced.total),
    tax_rate: catalogue.pricing.tax_rate,
    currency: catalogue.pricing.currency,
    version: versionOf(cart.revision, priced.fingerprint),
    order_id: cart.order_id,
    checked_out_at: cart.checked_out_at,
    created_at: stored ? cart.created_at : null,
    updated_at: stored ? cart.updated_at : null,
    expires_at: stored ? iso(cart.expires_at) : null,
  };
}

/** The specs of stored lines, with the legacy table version each was priced from. */
const storedSpecs = (cart: CartRecord): (LineSpec & { price_version: number })[] =>
  cart.items.map((line) => ({ ...specOf(line), price_version: line.price_version }));

// ---- Reading ----------------------------------------------------------------------------------

export async function getCart(tenant: Tenant, ref: CartRef): Promise<Cart> {
  const cart = await ref.load(tenant, new Date());
  return presentCart(cart, await repo.readCatalogue(tenant, storedSpecs(cart)));
}

// ---- Lines ------------------------------------------------------------------------------------

const specOfInput = (input: CartLineInput): LineSpec =>
  input.product_id !== undefined
    ? { kind: 'product', product_id: input.product_id, quantity: input.quantity, options: input.options ?? {} }
    : {
        kind: 'legacy',
        legacy_product_id: input.legacy_product_id!,
        format: input.format!,
        color: input.color!,
        quantity: input.quantity,
        pages: input.pages!,
      };

/** The problems of a line that cannot be priced, as the calculators word them (a sparse legacy table names its valid cells). */
async function problemsOf(
  tenant: Tenant,
  spec: LineSpec,
  price: Extract<LinePrice, { ok: false }>,
  catalogue: Catalogue,
): Promise<ErrorDetail[]> {
  if (!price.missingCell || spec.kind !== 'legacy') return price.problems;
  const legacy = catalogue.legacy.get(spec.legacy_product_id)!;
  return [missingCellProblem(spec, await pricedCells(tenant, legacy.id, legacy.price_version, spec.format, spec.color))];
}

/** A line priced now (422 with the calculators' field names under `at` when it cannot be). */
async function pricedLine(
  tenant: Tenant,
  spec: LineSpec,
  extras: Pick<CartLineRecord, 'id' | 'file_ids' | 'note' | 'added_at'>,
  catalogue: Catalogue,
  at: string,
): Promise<CartLineRecord> {
  const price = priceLine(spec, catalogue);
  if (!price.ok) {
    const problems = await problemsOf(tenant, spec, price, catalogue);
    throw new ValidationError(
      'The line cannot be priced',
      problems.map((problem) => ({ ...problem, field: `${at}${problem.field}` })),
    );
  }
  return {
    ...extras,
    kind: spec.kind,
    product_id: spec.kind === 'product' ? spec.product_id : null,
    options: price.options,
    legacy_product_id: spec.kind === 'legacy' ? spec.legacy_product_id : null,
    format: spec.kind === 'legacy' ? spec.format : null,
    color: spec.kind === 'legacy' ? spec.color : null,
    pages: spec.kind === 'legacy' ? spec.pages : null,
    quantity: spec.quantity,
    unit_price: price.unit_price,
    setup_fee: price.setup_fee,
    price_version: price.price_version,
  };
}

function assertOpen(cart: CartRecord): void {
  if (cart.status === 'checked_out') {
    throw new ConflictError(`Cart ${cart.id} was checked out (order ${cart.order_id}); start a new cart`, [
      { field: 'id', message: 'checked out' },
    ]);
  }
}

function assertSize(count: number, field: string): void {
  if (count > MAX_CART_LINES) {
    throw new ValidationError('The cart is full', [
      { field, message: `a cart holds at most ${MAX_CART_LINES} lines; this would make ${count}` },
    ]);
  }
}

/** A change of a cart's lines: what it needs priced, and the lines after it (given what was read). */
interface LineChange {
  /** With the legacy table version a changed line was priced from: its new cell is read in the same batch. */
  specs: (LineSpec & { price_version?: number })[];
  apply(cart: CartRecord, catalogue: Catalogue, now: Date): Promise<Pick<CartRecord, 'items' | 'next_line_id'>>;
}

/** Reads the cart, prices what the change needs with the cart's own lines in one batch, writes over the revision read. */
function changeLines(tenant: Tenant, ref: CartRef, plan: (cart: CartRecord) => LineChange): Promise<Cart> {
  return retryOnVersionConflict('cart', async () => {
    const now = new Date();
    const before = await ref.load(tenant, now);
    assertOpen(before);
    const change = plan(before);
    const catalogue = await repo.readCatalogue(tenant, [...storedSpecs(before), ...change.specs]);
    const lines = await change.apply(before, catalogue, now);
    const after: CartRecord = { ...before, ...lines, updated_at: now.toISOString(), revision: before.revision + 1 };
    after.expires_at = expiryOf(after, now);
    await repo.saveCart(tenant, after, before.revision);
    return presentCart(after, catalogue);
  });
}

/** New lines appended to `cart` (ids from its counter), each priced now. */
async function appended(
  tenant: Tenant,
  cart: CartRecord,
  inputs: readonly CartLineInput[],
  catalogue: Catalogue,
  now: Date,
  field: (index: number) => string,
): Promise<Pick<CartRecord, 'items' | 'next_line_id'>> {
  assertSize(cart.items.length + inputs.length, inputs.length === 1 ? 'quantity' : 'items');
  const problems: ErrorDetail[] = [];
  const lines: CartLineRecord[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      lines.push(
        await pricedLine(
          tenant,
          specOfInput(input),
          { id: cart.next_line_id + index, file_ids: input.file_ids, note: input.note ?? null, added_at: now.toISOString() },
          catalogue,
          field(index),
        ),
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(...(error.details ?? []));
    }
  }
  if (problems.length) throw new ValidationError(inputs.length === 1 ? 'The line cannot be priced' : 'Lines cannot be priced', problems);
  return { items: [...cart.items, ...lines], next_line_id: cart.next_line_id + inputs.length };
}

export function addItem(tenant: Tenant, ref: CartRef, input: CartLineInput): Promise<Cart> {
  return changeLines(tenant, ref, () => ({
    specs: [specOfInput(input)],
    apply: (cart, catalogue, now) => appended(tenant, cart, [input], catalogue, now, () => ''),
  }));
}

function requireLine(cart: CartRecord, itemId: number): CartLineRecord {
  const line = cart.items.find((candidate) => candidate.id === itemId);
  if (!line) throw new NotFoundError('cart item', itemId);
  return line;
}

export function updateItem(tenant: Tenant, ref: CartRef, itemId: number, changes: CartLineUpdate): Promise<Cart> {
  return changeLines(tenant, ref, (cart) => {
    const line = requireLine(cart, itemId);
    const problems: ErrorDetail[] = [];
    const legacyOnly = (['format', 'color', 'pages'] as const).filter((name) => changes[name] !== undefined);
    if (line.kind === 'product') for (const name of legacyOnly) problems.push({ field: name, message: 'only for legacy lines' });
    if (line.kind === 'legacy' && changes.options !== undefined) problems.push({ field: 'options', message: 'only for product lines' });
    if (problems.length) throw new ValidationError('The line cannot be changed so', problems);
    const current = specOf(line);
    const spec: LineSpec =
      current.kind === 'product'
        ? { ...current, quantity: changes.quantity ?? current.quantity, options: changes.options ?? current.options }
        : {
            ...current,
            quantity: changes.quantity ?? current.quantity,
            format: changes.format ?? current.format,
            color: changes.color ?? current.color,
            pages: changes.pages ?? current.pages,
          };
    return {
      specs: [{ ...spec, price_version: line.price_version }],
      apply: async (before, catalogue) => {
        const extras = {
          id: line.id,
          file_ids: changes.file_ids ?? line.file_ids,
          note: changes.note === undefined ? line.note : changes.note,
          added_at: line.added_at,
        };
        const changed = await pricedLine(tenant, spec, extras, catalogue, '');
        return {
          items: before.items.map((candidate) => (candidate.id === itemId ? changed : candidate)),
          next_line_id: before.next_line_id,
        };
      },
    };
  });
}

export function removeItem(tenant: Tenant, ref: CartRef, itemId: number): Promise<Cart> {
  return changeLines(tenant, ref, (cart) => {
    requireLine(cart, itemId);
    return {
      specs: [],
      apply: async (before) => ({ items: before.items.filter((line) => line.id !== itemId), next_line_id: before.next_line_id }),
    };
  });
}

// ---- Session carts ------------------------------------------------------------------------------

/** A new session cart: its id is `cart_` and 24 random base62 characters (about 143 bits), the capability for it. */
export async function createSessionCart(tenant: Tenant, input: { items: CartLineInput[] }): Promise<Cart> {
  const now = new Date();
  const at = now.toISOString();
  const empty: CartRecord = {
    id: `cart_${randomToken(24)}`,
    status: 'open',
    customer_id: null,
    items: [],
    next_line_id: 1,
    order_id: null,
    checked_out_revision: null,
    checked_out_at: null,
    created_at: at,
    updated_at: at,
    revision: 1,
    expires_at: 0,
  };
  const catalogue = await repo.readCatalogue(tenant, input.items.map(specOfInput));
  const lines = await appended(tenant, empty, input.items, catalogue, now, (index) => `items.${index}.`);
  const cart: CartRecord = { ...empty, ...lines };
  cart.expires_at = expiryOf(cart, now);
  await repo.saveCart(tenant, cart, 0);
  return presentCart(cart, catalogue);
}

export async function deleteCart(tenant: Tenant, id: string): Promise<{ id: string; deleted: true }> {
  await repo.deleteSessionCart(tenant, id);
  return { id, deleted: true };
}

// ---- Merge --------------------------------------------------------------------------------------

/**
 * `POST /v1/cart/merge`: the session cart's lines go into the customer's cart and the session cart
 * is gone — one transaction, conditional on both revisions. What is left of the session cart is a
 * marker (status `merged`, no lines, a day's TTL) that answers 404 to everything but a second
 * merge, which is told it was merged already (409) and changes nothing.
 */
export function mergeCart(tenant: Tenant, customerId: number, sessionId: string): Promise<Cart> {
  return retryOnVersionConflict('cart', async () => {
    const now = new Date();
    const { session, customer } = await repo.readCartsToMerge(tenant, sessionId, customerId, now);
    if (!session) throw new NotFoundError('cart', sessionId);
    if (session.status === 'merged') {
      throw new ConflictError(`Cart ${sessionId} was merged into a customer's cart already; nothing changed`, [
        { field: 'cart_id', message: 'merged already' },
      ]);
    }
    if (session.status === 'checked_out') {
      throw new ConflictError(`Cart ${sessionId} was checked out (order ${session.order_id}); nothing to merge`, [
        { field: 'cart_id', message: 'checked out' },
      ]);
    }
    const catalogue = await repo.readCatalogue(tenant, [...storedSpecs(customer), ...storedSpecs(session)]);
    const lines = mergeLines(customer, session, catalogue);
    assertSize(lines.items.length, 'cart_id');
    const at = now.toISOString();
    const after: CartRecord = { ...customer, ...lines, updated_at: at, revision: customer.revision + 1 };
    after.expires_at = expiryOf(after, now);
    const gone: CartRecord = { ...session, status: 'merged', items: [], updated_at: at, revision: session.revision + 1 };
    gone.expires_at = expiryOf(gone, now);
    const moved = () => new VersionConflict('cart');
    await transactWrite([
      { item: repo.cartWrite(tenant, after, customer.revision), onConditionFailure: moved },
      { item: repo.cartWrite(tenant, gone, session.revision), onConditionFailure: moved },
    ]);
    return presentCart(after, catalogue);
  });
}

// ---- Checkout -----------------------------------------------------------------------------------

/** The cart changed between its read and the order's transaction: read it again. */
class CartMoved extends Error {}

/**
 * Attempts when the cart moves under a checkout. The second reads the cart again and, in practice,
 * answers without writing: the checkout that won meanwhile (its order), or a 409 when the cart
 * changed otherwise (the version sent is no longer its). So one request runs the orders' creation —
 * and its bound of write calls (docs/data-model.md) — once, twice at the very most.
 */
const CHECKOUT_ATTEMPTS = 2;

/** What the order takes besides the cart's lines: the customer, addresses, shipping, notes. */
export type OrderTerms = Omit<OrderCreate, 'items' | 'shipping_address' | 'billing_address'> & {
  /** Null: no address — not the customer's default (a guest's checkout). */
  shipping_address?: OrderCreate['shipping_address'] | null;
  billing_address?: OrderCreate['billing_address'] | null;
  /**
   * Whose uploads the lines' files must be (shared/files/line-files.ts): the customer's own for a
   * customer token and for a guest (who cannot upload, so a guest's lines take none); any file of
   * the tenant's for a secret key.
   */
  files_of?: number;
};

export interface CheckedOut {
  order: Order;
  /** False when the cart had been checked out already (a repeat): the order is that checkout's. */
  created: boolean;
}

const cellKey = (spec: Extract<LineSpec, { kind: 'legacy' }>): string =>
  JSON.stringify([spec.legacy_product_id, spec.format, spec.color, spec.quantity, spec.pages]);

/**
 * Checkout's pricer: product lines by the formula, legacy lines by the prices the order's own
 * creation read for them (its lines are the cart's, in the cart's order) — so its bundle carries
 * the order's legacy lookup, not the cart's.
 */
function checkoutPricer(cart: CartRecord, legacy: ReadonlyMap<number, LegacyLinePrice>): LinePricer {
  const byCell = new Map<string, LegacyLinePrice>();
  cart.items.forEach((line, index) => {
    const spec = specOf(line);
    const price = legacy.get(index);
    if (spec.kind === 'legacy' && price) byCell.set(cellKey(spec), price);
  });
  return (spec, catalogue) => {
    if (spec.kind === 'product') return priceProductLine(spec, catalogue);
    const price = byCell.get(cellKey(spec));
    return price?.ok
      ? { ok: true, name: price.name, unit_price: price.price, setup_fee: 0, options: {}, price_version: 0 }
      : { ok: false, name: null, problems: price?.problems ?? [{ field: 'legacy_product_id', message: 'not priced' }] };
  };
}

/** The checkout's own terms for the lines: every line available, and the prices the client saw (its version). */
function checkAgainst(cart: CartRecord, version: string) {
  return (
    products: Catalogue['products'],
    account: { currency?: string; tax_rate?: number } | undefined,
    legacy: ReadonlyMap<number, LegacyLinePrice>,
  ): void => {
    const catalogue: Catalogue = {
      products,
      legacy: new Map(),
      prices: new Map(),
      pricing: { currency: account?.currency ?? 'EUR', tax_rate: account?.tax_rate ?? 19 },
    };
    const priced = priceCartWith(cart, catalogue, checkoutPricer(cart, legacy));
    const unavailable = priced.lines.flatMap((line, index) =>
      line.available ? [] : [{ field: `items.${index}`, message: `line ${line.line.id}: ${line.reason}` }],
    );
    if (unavailable.length) throw new ConflictError('Some lines cannot be ordered now; nothing was written', unavailable);
    if (versionOf(cart.revision, priced.fingerprint) !== version) {
      const changed = priced.lines.flatMap((line, index) =>
        line.price_changed ? [{ field: `items.${index}`, message: `line ${line.line.id}: ${changeMessage(line)}` }] : [],
      );
      throw new ConflictError(
        `Prices changed since version ${version} was read; nothing was written. The cart's version is now ${versionOf(cart.revision, priced.fingerprint)}`,
        changed.length ? changed : [{ field: 'version', message: 'the prices shown with this version have changed' }],
      );
    }
  };
}

/** Closing the cart in the order's transaction: emptied, with the order; a session cart is closed for good. */
function closed(cart: CartRecord, orderId: number, now: Date): CartRecord {
  const at = now.toISOString();
  const after: CartRecord = {
    ...cart,
    status: cart.customer_id === null ? 'checked_out' : 'open',
    items: [],
    order_id: orderId,
    checked_out_revision: cart.revision,
    checked_out_at: at,
    updated_at: at,
    revision: cart.revision + 1,
  };
  after.expires_at = expiryOf(after, now);
  return after;
}

function assertOrderable(cart: CartRecord): void {
  if (cart.items.length === 0) throw new ValidationError('The cart is empty', [{ field: 'items', message: 'add a line first' }]);
  // An order holds what one transaction can confirm into production jobs (orders/schema.ts): a larger cart is split by the client.
  if (cart.items.length > MAX_ORDER_LINES) {
    throw new ValidationError('The cart has more lines than one order takes', [
      { field: 'items', message: `an order takes at most ${MAX_ORDER_LINES} lines; remove ${cart.items.length - MAX_ORDER_LINES}` },
    ]);
  }
}

/** Line notes go into the order's notes (order lines carry a description, not a note). */
function notesOf(cart: CartRecord, notes: string | null | undefined): string | null {
  const lineNotes = cart.items.flatMap((line, index) => (line.note ? [`Line ${index + 1}: ${line.note}`] : []));
  const all = [notes, ...lineNotes].filter(Boolean);
  return all.length ? all.join('\n') : null;
}

/**
 * Checks the cart out into one order: the order's creation is `createOrder`'s (lines priced, stock
 * reserved, `order.created`), and the cart's close — conditional on the revision read — is written
 * in the same transaction. `terms` settles the customer (it may make a guest's) and is asked once.
 * A cart checked out already answers that checkout's order: a session cart whatever the version, a
 * customer's cart when the version sent is the one that checkout closed. Of concurrent checkouts
 * one writes; the others find its order.
 */
export async function checkout(
  tenant: Tenant,
  ref: CartRef,
  version: string,
  terms: () => Promise<OrderTerms>,
  reader?: number,
): Promise<CheckedOut> {
  let settled: Promise<OrderTerms> | undefined;
  return retry(
    async () => {
      const now = new Date();
      // The cart first: an unknown one is 404 whatever the body says.
      const cart = await ref.load(tenant, now);
      const requested = revisionOf(version);
      if (requested === undefined)
        throw new ValidationError('The checkout is invalid', [{ field: 'version', message: "is not a cart's version" }]);
      if (cart.order_id !== null && (cart.status === 'checked_out' || requested === cart.checked_out_revision)) {
        return { order: await getOrder(tenant, cart.order_id, reader), created: false };
      }
      assertOrderable(cart);
      if (requested !== cart.revision) {
        throw new ConflictError(`The cart changed since version ${version} was read; nothing was written`, [
          { field: 'version', message: `the cart is at revision ${cart.revision}` },
        ]);
      }
      settled ??= terms();
      const { files_of: fileOwner, ...orderTerms } = await settled;
      // An address given as null is "none" to the orders' address rules (as in an order update), not "the default".
      const input = {
        ...orderTerms,
        items: cart.items.map((line) =>
          line.kind === 'legacy'
            ? {
                legacy_product_id: line.legacy_product_id!,
                format: line.format!,
                color: line.color!,
                pages: line.pages!,
                quantity: line.quantity,
                options: {},
                file_ids: line.file_ids,
              }
            : { product_id: line.product_id!, quantity: line.quantity, options: line.options, file_ids: line.file_ids },
        ),
        notes: notesOf(cart, orderTerms.notes),
      } as OrderCreate;
      const order = await createOrder(tenant, input, {
        ...(fileOwner === undefined ? {} : { fileOwner }),
        check: checkAgainst(cart, version),
        parts: (order) => [
          { item: repo.cartWrite(tenant, closed(cart, order.id, now), cart.revision), onConditionFailure: () => new CartMoved() },
        ],
      });
      return { order, created: true };
    },
    {
      isRetryable: (error) => error instanceof CartMoved,
      maxAttempts: CHECKOUT_ATTEMPTS,
      pauseMs: 15,
      exhausted: () => new ConflictError('The cart changed meanwhile; try again'),
    },
  );
}

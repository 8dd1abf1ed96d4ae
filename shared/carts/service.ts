/**
 * Carts (docs/carts.md): session carts addressed by a random id (the capability), one cart per
 * signed-in customer, lines priced by the existing calculators when added and priced again on
 * every read (pricing.ts), and a merge of a session cart into the customer's in one transaction
 * (checking out: checkout.ts). Every write is conditional on the revision read and retried on a
 * VersionConflict.
 */
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '#shared/errors';
import { randomToken } from '#shared/ids';
import { missingCellProblem } from '#shared/legacy-products/lookup';
import { pricedCells } from '#shared/legacy-products/prices';
import { taxEntryView } from '#shared/tax/view';
import { fromMinor } from '#shared/money';
import { priceCart, priceLine } from './line-pricing';
import { specOf, versionOf, type Catalogue, type LinePrice, type LineSpec, type PricedLine } from './pricing';
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
    tax_category: priced.tax_category,
    tax_rate: priced.tax_rate,
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
    taxes: priced.taxes.map(taxEntryView),
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
    await repo.saveMerge(tenant, after, customer.revision, gone, session.revision);
    return presentCart(after, catalogue);
  });
}

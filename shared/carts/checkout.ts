/**
 * Checking a cart out (docs/carts.md#checkout): the order is created through the orders' one
 * creation (shared/orders/creation.ts), the cart's close joined to its one transaction as a part
 * and conditional on the revision read; the lines are priced again against what the order was
 * priced from, and a version whose prices are no longer the cart's is refused before anything is
 * written.
 */
import { retry } from '#shared/async/retry';
import type { Account } from '#shared/accounts/stored';
import type { Tenant } from '#shared/auth/principal';
import { ConflictError, ValidationError } from '#shared/errors';
import type { LegacyLinePrice } from '#shared/legacy-products/line-prices';
import { MAX_ORDER_LINES, MAX_ORDER_NOTES, type OrderCreate, type Order } from '#shared/orders/schema';
import { draftGuestCustomer, type GuestCustomer } from '#shared/customers/guest';
import { createPlannedOrder, takeOrderNumber } from '#shared/orders/creation';
import { offerOrThrow, readOffer } from '#shared/orders/offers';
import { getOrder, presentOrder } from '#shared/orders/service';
import {
  changeMessage,
  priceCartWith,
  priceProductLine,
  revisionOf,
  specOf,
  versionOf,
  type Catalogue,
  type LinePricer,
  type LineSpec,
  cataloguePricing,
} from './pricing';
import * as repo from './repository';
import type { CartRef } from './service';
import { expiryOf, type CartRecord } from './stored';

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

/** What the order takes besides the cart's lines: the customer (or a guest), addresses, shipping, notes. */
export type OrderTerms = Omit<OrderCreate, 'items' | 'customer_id' | 'shipping_address' | 'billing_address'> & {
  /** The customer the order is for; or, for a guest (a publishable key), `guest`. */
  customer_id?: number;
  /**
   * A guest's name and email: the order is for a customer of the guest's own, made with it in the
   * order's transaction (`draftGuestCustomer`) — never the tenant's customer of that email.
   */
  guest?: { name: string; email: string };
  /** Null: no address — not the customer's default (a guest's checkout). */
  shipping_address?: OrderCreate['shipping_address'] | null;
  billing_address?: OrderCreate['billing_address'] | null;
  /**
   * Whose uploads the lines' files must be (shared/files/line-files.ts): the customer's own for a
   * customer token; any file of the tenant's for a secret key. A guest's are its new customer's,
   * who uploaded none: a guest's lines take no files.
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
      ? {
          ok: true,
          name: price.name,
          unit_price: price.price,
          setup_fee: 0,
          options: {},
          price_version: 0,
          tax_category: price.tax_category,
        }
      : { ok: false, name: null, problems: price?.problems ?? [{ field: 'legacy_product_id', message: 'not priced' }] };
  };
}

/** The checkout's own terms for the lines: every line available, and the prices the client saw (its version). */
function checkAgainst(cart: CartRecord, version: string) {
  return (products: Catalogue['products'], account: Account | undefined, legacy: ReadonlyMap<number, LegacyLinePrice>): void => {
    const catalogue: Catalogue = {
      products,
      legacy: new Map(),
      prices: new Map(),
      pricing: cataloguePricing(account),
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
 * The order's input: the cart's lines and the terms, within every bound of the orders' own schema,
 * so a checkout makes no order that `POST /v1/orders` would refuse. The cart's schema keeps each
 * line within an order line's bounds (quantity, files, legacy cell, options — a unit test parses
 * the cart's boundary lines with the order's schema) and a merge too (merge.ts); the line count is
 * checked first (assertOrderable); what is left is the notes, which gather the lines' notes. (Not
 * parsed with the order schema here: its builders would take the checkout bundles past budget.)
 */
function orderInputOf(cart: CartRecord, terms: Omit<OrderTerms, 'guest' | 'files_of'> & { customer_id: number }): OrderCreate {
  const notes = notesOf(cart, terms.notes);
  if (notes !== null && notes.length > MAX_ORDER_NOTES) {
    throw new ValidationError("The order's notes would be too long; nothing was written", [
      {
        field: 'notes',
        message: `with the lines' notes (Line 1: …) the order's notes come to ${notes.length} characters, and an order holds at most ${MAX_ORDER_NOTES}: shorten the notes`,
      },
    ]);
  }
  // An address given as null is "none" to the orders' address rules (as in an order update), not "the default".
  return {
    ...terms,
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
    notes,
  } as OrderCreate;
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
  // The terms, a guest's customer drafted (its id taken once per request, whatever the attempts).
  let settled: Promise<Omit<OrderTerms, 'guest'> & { guest?: GuestCustomer | undefined }> | undefined;
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
      settled ??= terms().then(async (given) => ({ ...given, guest: given.guest && (await draftGuestCustomer(tenant, given.guest)) }));
      const { files_of: files, guest, customer_id: named, ...orderTerms } = await settled;
      const fileOwner = guest ? guest.customer.id : files;
      const input = orderInputOf(cart, { ...orderTerms, customer_id: guest ? guest.customer.id : named! });
      // The orders' one creation: the offer read and priced (a guest's customer taken as made, not read)…
      const read = await readOffer(tenant, input, { fileOwner, owner: guest && { customer: guest.customer, addresses: [] } });
      // …judged first in the cart's own terms (409: lines unavailable, prices changed), then the order's (422)…
      checkAgainst(cart, version)(read.products, read.account, read.legacy);
      const offer = offerOrThrow(read, 'order');
      // …and created with the cart's close in its transaction, conditional on the revision read.
      const numbered = await takeOrderNumber(tenant, now);
      const close = {
        item: repo.cartWrite(tenant, closed(cart, numbered.id, now), cart.revision),
        onConditionFailure: () => new CartMoved(),
      };
      const order = await createPlannedOrder(
        tenant,
        { ...offer, due_date: input.due_date ?? null, quote_id: null },
        numbered,
        read.products,
        {
          at: now,
          newCustomer: guest?.creation,
          more: [close],
        },
      );
      return { order: presentOrder(order), created: true };
    },
    {
      isRetryable: (error) => error instanceof CartMoved,
      maxAttempts: CHECKOUT_ATTEMPTS,
      pauseMs: 15,
      exhausted: () => new ConflictError('The cart changed meanwhile; try again'),
    },
  );
}

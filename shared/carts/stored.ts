/**
 * How carts are stored (docs/carts.md, docs/data-model.md): one item per cart holding its lines —
 * a session cart under its random id, a customer's cart under the customer — so a cart is read
 * with one GetItem and every change is one write conditional on the `revision` that was read.
 *
 * A line keeps the price it was priced at when it was added or last changed (`unit_price`,
 * `setup_fee`: the price the cart "holds"); reads price it again and show a change against it.
 * Expiry is the table's TTL attribute (`expires_at`, Unix seconds), moved by every write.
 */
import type { Tenant } from '#shared/auth/principal';
import { cartKeys, type ItemKey } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';

export const CART_STATUSES = ['open', 'checked_out', 'merged'] as const;
export type CartStatus = (typeof CART_STATUSES)[number];

/** At most this many lines in one cart. */
export const MAX_CART_LINES = 50;

const DAY = 24 * 3600;
/** A session cart with lines (or checked out) lives 30 days after its last change. */
export const SESSION_CART_TTL_SECONDS = 30 * DAY;
/** An empty session cart, and what a merged one leaves behind, live one day. */
export const EMPTY_CART_TTL_SECONDS = DAY;
/** A customer's cart lives a year after its last change (a deleted customer's goes with it). */
export const CUSTOMER_CART_TTL_SECONDS = 365 * DAY;

export const cartLine = /* @__PURE__ */ (() =>
  c.object({
    id: field(c.int),
    kind: field(c.enumOf(['product', 'legacy'])),
    product_id: field(c.nullable(c.int)),
    /** The chosen option values with the defaults filled in (product lines). */
    options: field(c.stringMap),
    legacy_product_id: field(c.nullable(c.int)),
    format: field(c.nullable(c.string)),
    color: field(c.nullable(c.string)),
    pages: field(c.nullable(c.int)),
    quantity: field(c.int),
    file_ids: field(c.list(c.int)),
    note: field(c.nullable(c.string)),
    /** The price held: per unit for product lines, the whole run for legacy lines (minor units). */
    unit_price: field(c.money),
    setup_fee: field(c.money),
    /** The legacy price table version it was priced from (its price item is read at that version first). */
    price_version: field(c.int),
    added_at: field(c.timestamp),
  }))();

export const storedCart = /* @__PURE__ */ (() =>
  entity({
    id: field(c.string).fixed(),
    status: field(c.enumOf(CART_STATUSES)),
    /** A customer's cart: the customer (null for session carts). */
    customer_id: field(c.nullable(c.int)).fixed(),
    items: field(c.list(cartLine)),
    next_line_id: field(c.int),
    /** The order of its last checkout, and the revision that checkout closed. */
    order_id: field(c.nullable(c.int)),
    checked_out_revision: field(c.nullable(c.int)),
    checked_out_at: field(c.nullable(c.timestamp)),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    /** Raised by every write; with the prices' fingerprint it makes the cart's `version` (docs/carts.md). */
    revision: field(c.int),
    /** TTL (Unix seconds). */
    expires_at: field(c.int),
  }))();

export type CartRecord = RecordOf<typeof storedCart.shape>;
export type CartLineRecord = CartRecord['items'][number];

export const cartFromItem = (item: Record<string, unknown>): CartRecord => storedCart.read(item);

export const cartKey = (tenant: Tenant, cart: Pick<CartRecord, 'id' | 'customer_id'>): ItemKey =>
  cart.customer_id === null ? cartKeys.sessionCart(tenant, cart.id) : cartKeys.customerCart(tenant, cart.customer_id);

/** When a cart written now expires: session carts 30 days after a change (empty ones a day), customer carts a year. */
export function expiryOf(cart: Pick<CartRecord, 'customer_id' | 'status' | 'items'>, now: Date): number {
  const seconds = Math.floor(now.getTime() / 1000);
  if (cart.customer_id !== null) return seconds + CUSTOMER_CART_TTL_SECONDS;
  if (cart.status === 'merged' || (cart.status === 'open' && cart.items.length === 0)) return seconds + EMPTY_CART_TTL_SECONDS;
  return seconds + SESSION_CART_TTL_SECONDS;
}

/**
 * The write of `after` over the cart read at `revision` (0: none was stored yet): a put
 * conditional on the revision read, so of two concurrent writes one wins and the other reads again.
 */
export function cartPut(tenant: Tenant, after: CartRecord, revision: number): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...cartKey(tenant, after), entity: 'CART', ...storedCart.attributes(after, 'put') },
      ...(revision === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: 'revision = :revision AND #status = :open',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':revision': revision, ':open': 'open' },
          }),
    },
  };
}

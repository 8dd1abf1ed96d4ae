/**
 * Carts in the single table (docs/data-model.md). A cart is one item: read with one GetItem
 * (strongly consistent: a client adds a line and reads the cart the next moment), written with one
 * Put conditional on the revision read (cartPut in stored.ts). Pricing a cart reads everything its
 * lines name in one BatchGetItem — products, legacy products, the legacy price items at the
 * versions the lines were priced from, and the account (currency, tax rate); only a legacy table
 * replaced since costs a second batch for the new price items.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { accountFromItems } from '#shared/accounts/stored';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { batchGet, keyId } from '#shared/db/batch';
import { accountSettingsKey, cartKeys, legacyProductKeys, platformKeys, tenantKeys, type ItemKey } from '#shared/db/keys';
import { isConditionFailure, tableName, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { NotFoundError, VersionConflict } from '#shared/errors';
import { legacyProductFromItem, type LegacyProductRecord } from '#shared/legacy-products/stored';
import { productFromItem, type ProductRecord } from '#shared/products/stored';
import { cataloguePricing, priceKey, type Catalogue, type LegacyCell, type LineSpec } from './pricing';
import { cartFromItem, cartPut, type CartRecord } from './stored';

const expired = (item: Record<string, unknown>, now: Date): boolean =>
  typeof item.expires_at === 'number' && item.expires_at * 1000 <= now.getTime();

/** A session cart, or undefined when there is none (never was, deleted, expired — TTL deletes lazily). */
export async function readSessionCart(tenant: Tenant, id: string, now: Date): Promise<CartRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: cartKeys.sessionCart(tenant, id), ConsistentRead: true }),
  );
  return result.Item && !expired(result.Item, now) ? cartFromItem(result.Item) : undefined;
}

export const customerCartId = (customerId: number): string => `cart_customer_${customerId}`;

/** A customer's cart as it would be before its first line: nothing stored yet (revision 0). */
export function emptyCustomerCart(customerId: number, now: Date, revision = 0): CartRecord {
  const at = now.toISOString();
  return {
    id: customerCartId(customerId),
    status: 'open',
    customer_id: customerId,
    items: [],
    next_line_id: 1,
    order_id: null,
    checked_out_revision: null,
    checked_out_at: null,
    created_at: at,
    updated_at: at,
    revision,
    expires_at: 0,
  };
}

/** The customer's cart from its stored item: created on first use, so none stored reads as an empty one. */
function customerCartOf(customerId: number, item: Record<string, unknown> | undefined, now: Date): CartRecord {
  if (!item) return emptyCustomerCart(customerId, now);
  // Expired but not yet removed by TTL: empty, at the stored revision (the next write is conditional on it).
  if (expired(item, now)) return emptyCustomerCart(customerId, now, cartFromItem(item).revision);
  return cartFromItem(item);
}

export async function readCustomerCart(tenant: Tenant, customerId: number, now: Date): Promise<CartRecord> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: cartKeys.customerCart(tenant, customerId), ConsistentRead: true }),
  );
  return customerCartOf(customerId, result.Item, now);
}

/** A session cart and the customer's cart in one BatchGetItem (merge). */
export async function readCartsToMerge(
  tenant: Tenant,
  sessionCartId: string,
  customerId: number,
  now: Date,
): Promise<{ session: CartRecord | undefined; customer: CartRecord }> {
  const sessionKey = cartKeys.sessionCart(tenant, sessionCartId);
  const customerKey = cartKeys.customerCart(tenant, customerId);
  const found = await batchGet([sessionKey, customerKey], { consistent: true });
  const session = found.get(keyId(sessionKey));
  return {
    session: session && !expired(session, now) ? cartFromItem(session) : undefined,
    customer: customerCartOf(customerId, found.get(keyId(customerKey)), now),
  };
}

/** A legacy line's cell at the version it was priced from (0: not priced yet). */
type LegacyWanted = { id: number; version: number; cell: LegacyCell };

/**
 * Everything pricing `specs` needs, in one BatchGetItem (strongly consistent: a product changed a
 * moment ago is priced as it is now), and a second one only for legacy price items of a table
 * replaced since the line was priced (or of a line being priced for the first time).
 */
export async function readCatalogue(tenant: Tenant, specs: readonly (LineSpec & { price_version?: number })[]): Promise<Catalogue> {
  const productIds = new Set<number>();
  const legacyWanted: LegacyWanted[] = [];
  for (const spec of specs) {
    if (spec.kind === 'product') productIds.add(spec.product_id);
    else legacyWanted.push({ id: spec.legacy_product_id, version: spec.price_version ?? 0, cell: spec });
  }
  const accountKey = platformKeys.account(tenant.accountId);
  const priceKeyOf = (wanted: LegacyWanted, version: number): ItemKey =>
    legacyProductKeys.legacyPrice(tenant, wanted.id, version, wanted.cell);
  const keys: ItemKey[] = [
    accountKey,
    accountSettingsKey(tenant.accountId),
    ...[...productIds].map((id) => tenantKeys.product(tenant, id)),
    ...[...new Set(legacyWanted.map((wanted) => wanted.id))].map((id) => legacyProductKeys.legacyProduct(tenant, id)),
    ...legacyWanted.filter((wanted) => wanted.version > 0).map((wanted) => priceKeyOf(wanted, wanted.version)),
  ];
  const found = await batchGet(keys, { consistent: true });
  const products = new Map<number, ProductRecord>();
  for (const id of productIds) {
    const item = found.get(keyId(tenantKeys.product(tenant, id)));
    if (item) products.set(id, productFromItem(item));
  }
  const legacy = new Map<number, LegacyProductRecord>();
  for (const wanted of legacyWanted) {
    const item = found.get(keyId(legacyProductKeys.legacyProduct(tenant, wanted.id)));
    if (item) legacy.set(wanted.id, legacyProductFromItem(item));
  }
  const prices = new Map<string, number>();
  const again: { wanted: LegacyWanted; version: number }[] = [];
  for (const wanted of legacyWanted) {
    const live = legacy.get(wanted.id)?.price_version;
    if (!live) continue;
    if (live !== wanted.version) {
      again.push({ wanted, version: live });
      continue;
    }
    const item = found.get(keyId(priceKeyOf(wanted, live)));
    if (item) prices.set(priceKey(wanted.id, live, wanted.cell), Number(item.price));
  }
  if (again.length) {
    const more = await batchGet(
      again.map(({ wanted, version }) => priceKeyOf(wanted, version)),
      { consistent: true },
    );
    for (const { wanted, version } of again) {
      const item = more.get(keyId(priceKeyOf(wanted, version)));
      if (item) prices.set(priceKey(wanted.id, version, wanted.cell), Number(item.price));
    }
  }
  const account = found.get(keyId(accountKey));
  const record = account ? accountFromItems(account, found.get(keyId(accountSettingsKey(tenant.accountId)))) : undefined;
  return { products, legacy, prices, pricing: cataloguePricing(record) };
}

/** Writes the cart over the revision read (0: none stored): a VersionConflict when it moved meanwhile. */
export async function saveCart(tenant: Tenant, after: CartRecord, revisionRead: number): Promise<void> {
  const put = cartPut(tenant, after, revisionRead).Put!;
  try {
    await dynamo().send(new PutCommand(put));
  } catch (error) {
    if (isConditionFailure(error)) throw new VersionConflict('cart');
    throw error;
  }
}

/** The cart's part of a transaction of another writer (a merge, a checkout), conditional on the revision read. */
export const cartWrite = (tenant: Tenant, after: CartRecord, revisionRead: number): TransactItem => cartPut(tenant, after, revisionRead);

/**
 * A merge: the customer's cart and the session cart's marker (`merged`), each conditional on the
 * revision read, in one transaction — a cart that moved meanwhile is a VersionConflict (read again).
 */
export async function saveMerge(
  tenant: Tenant,
  customer: CartRecord,
  customerRevision: number,
  session: CartRecord,
  sessionRevision: number,
) {
  const moved = () => new VersionConflict('cart');
  await transactWrite([
    { item: cartWrite(tenant, customer, customerRevision), onConditionFailure: moved },
    { item: cartWrite(tenant, session, sessionRevision), onConditionFailure: moved },
  ]);
}

/** Deletes a session cart (whatever its state); 404 when there is none. */
export async function deleteSessionCart(tenant: Tenant, id: string): Promise<void> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: cartKeys.sessionCart(tenant, id),
        ConditionExpression: 'attribute_exists(pk) AND #status <> :merged',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':merged': 'merged' },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('cart', id);
    throw error;
  }
}

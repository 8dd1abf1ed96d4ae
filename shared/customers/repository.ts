/**
 * Customers and their addresses in the single table. A customer and its addresses share one
 * partition; email uniqueness is a marker item written in the same transaction; list totals are
 * counters kept in the same transaction; every change is conditional on the customer's version.
 * Access patterns are listed in docs/data-model.md.
 */
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { countCollectionUpTo, readTotal, readWindow, type CollectionQuery, type PageRequest, type Total } from '#shared/db/collections';
import { adjustTotal } from '#shared/db/totals';
import { batchGet, keyId } from '#shared/db/batch';
import { createdSortKey, cursorKeys, customerAuthKeys, nameSortKey, tenantKeys, type ItemKey } from '#shared/db/keys';
import { tableName, type TransactionPart, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { buildUpdate, versionedDelete, versionedUpdate } from '#shared/db/update-expression';
import { ConflictError, NotFoundError, UnknownCursorError, VersionConflict } from '#shared/errors';
import {
  CUSTOMERS,
  addressFromItem,
  addressPut,
  customerChanges,
  customerFromItem,
  customerPut,
  defaultPointer,
  emailMarkerPut,
  storedAddress,
  type AddressRecord,
  type CustomerRecord,
} from './stored';

/** Bounded so that deleting a customer with all its addresses fits one transaction. */
export const MAX_ADDRESSES_PER_CUSTOMER = 25;

const customerMoved = () => new VersionConflict('customer');

const emailTaken = (email: string) =>
  new ConflictError('A customer with this email already exists', [
    { field: 'email', message: `${email} is already used by another customer` },
  ]);

/** Update of the customer item, conditional on the version we read; bumps the version (`counters`: SET clauses of its own). */
const customerUpdate = (
  tenant: Tenant,
  before: CustomerRecord,
  after: CustomerRecord,
  counters?: { set: string; values: Record<string, unknown> },
): TransactItem =>
  versionedUpdate(
    tenantKeys.customer(tenant, before.id),
    customerChanges(tenant, after),
    before.version,
    counters ? { set: [counters.set], values: counters.values } : {},
  );

/**
 * The writes that create a customer — the customer, its email marker (`onEmailTaken` when the
 * email has a customer: a 409 by default), the total, its event — for one transaction, which a
 * caller may extend with writes of its own (a confirmed registration adds the login).
 */
export const customerInsertion = (
  tenant: Tenant,
  customer: CustomerRecord,
  event: TransactItem,
  onEmailTaken: () => Error = () => emailTaken(customer.email),
): (TransactItem | TransactionPart)[] => [
  customerPut(tenant, customer),
  { item: emailMarkerPut(tenant, customer.email, customer.id), onConditionFailure: onEmailTaken },
  adjustTotal(tenant, CUSTOMERS, 1),
  event,
];

/** Writes a customer's creation (`customerInsertion`'s writes) in one transaction. */
export async function insertCustomer(writes: (TransactItem | TransactionPart)[]): Promise<void> {
  await transactWrite(writes);
}

/**
 * A guest's customer, as parts of another writer's transaction (a checkout's order): the put with
 * its first counter values (`counts`: the order's moves of the customer's counters, which an
 * update of the same item could not join the put in one transaction), the list total and the
 * event. No email marker: a guest's email may be another customer's (stored.ts).
 */
export function guestCustomerInsertion(
  tenant: Tenant,
  customer: CustomerRecord,
  counts: Record<string, number>,
  event: TransactItem,
): TransactItem[] {
  const put = customerPut(tenant, customer).Put!;
  return [{ Put: { ...put, Item: { ...put.Item, ...counts } } }, adjustTotal(tenant, CUSTOMERS, 1), event];
}

/**
 * A customer's list paged by cursor (their invoices, their quotes): the customer — 404 when the
 * tenant has none — and the cursor entry at `cursor.key` — 422 naming `starting_after` when there is
 * none — with one BatchGetItem for both; without a cursor, the customer alone.
 */
export async function requireCustomerAndCursor<T>(
  tenant: Tenant,
  customerId: number,
  cursor: { id: number; resource: string; key: ItemKey; read: (item: Record<string, unknown>) => T } | undefined,
): Promise<T | undefined> {
  const customerKey = tenantKeys.customer(tenant, customerId);
  const found = await batchGet(cursor ? [customerKey, cursor.key] : [customerKey]);
  if (!found.has(keyId(customerKey))) throw new NotFoundError('customer', customerId);
  if (!cursor) return undefined;
  const entry = found.get(keyId(cursor.key));
  if (!entry) throw new UnknownCursorError(cursor.resource, cursor.id);
  return cursor.read(entry);
}

export async function readCustomer(tenant: Tenant, id: number): Promise<CustomerRecord | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.customer(tenant, id) }));
  return result.Item ? customerFromItem(result.Item) : undefined;
}

export async function requireCustomer(tenant: Tenant, id: number): Promise<CustomerRecord> {
  const customer = await readCustomer(tenant, id);
  if (!customer) throw new NotFoundError('customer', id);
  return customer;
}

/** One Query over the customer's partition: the customer and all its addresses. */
export async function readCustomerWithAddresses(
  tenant: Tenant,
  id: number,
  /** Strongly consistent (orders: a customer created a moment ago must be found). */
  consistent = false,
): Promise<{ customer: CustomerRecord; addresses: AddressRecord[] }> {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': tenantKeys.customer(tenant, id).pk },
      ConsistentRead: consistent,
    }),
  );
  const items = result.Items ?? [];
  const customerItem = items.find((item) => item.sk === tenantKeys.customer(tenant, id).sk);
  if (!customerItem) throw new NotFoundError('customer', id);
  return {
    customer: customerFromItem(customerItem),
    addresses: items.filter((item) => String(item.sk).startsWith(tenantKeys.addressPrefix)).map(addressFromItem),
  };
}

/** The customer and one address in a single BatchGet. */
export async function readCustomerAndAddress(
  tenant: Tenant,
  id: number,
  addressId: number,
): Promise<{ customer: CustomerRecord; address: AddressRecord }> {
  const customerKey = tenantKeys.customer(tenant, id);
  const addressKey = tenantKeys.address(tenant, id, addressId);
  const result = await dynamo().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: [customerKey, addressKey] } } }));
  const items = result.Responses?.[tableName()] ?? [];
  const customerItem = items.find((item) => item.sk === customerKey.sk);
  if (!customerItem) throw new NotFoundError('customer', id);
  const addressItem = items.find((item) => item.sk === addressKey.sk);
  if (!addressItem) throw new NotFoundError('address', addressId);
  return { customer: customerFromItem(customerItem), address: addressFromItem(addressItem) };
}

/** The default billing addresses of the customers that have one, by customer id (one BatchGetItem per 100). */
export async function readDefaultBillingAddresses(
  tenant: Tenant,
  customers: readonly CustomerRecord[],
): Promise<Map<number, AddressRecord>> {
  const keys = customers.flatMap((customer) =>
    customer.default_billing_address_id === null
      ? []
      : [{ customerId: customer.id, key: tenantKeys.address(tenant, customer.id, customer.default_billing_address_id) }],
  );
  if (keys.length === 0) return new Map();
  const found = await batchGet(keys.map(({ key }) => key));
  return new Map(
    keys.flatMap(({ customerId, key }) => {
      const item = found.get(keyId(key));
      return item ? [[customerId, addressFromItem(item)] as const] : [];
    }),
  );
}

export async function saveCustomer(tenant: Tenant, before: CustomerRecord, after: CustomerRecord, event: TransactItem): Promise<void> {
  // A guest holds no marker, so its email moves none (and never deletes the marker of another customer with that email).
  const emailChanged = !before.guest && before.email.toLowerCase() !== after.email.toLowerCase();
  const emailMove = emailChanged
    ? [
        { item: emailMarkerPut(tenant, after.email, after.id), onConditionFailure: () => emailTaken(after.email) },
        {
          Delete: {
            TableName: tableName(),
            Key: tenantKeys.customerEmail(tenant, before.email),
            ConditionExpression: 'customer_id = :id',
            ExpressionAttributeValues: { ':id': before.id },
          },
        },
      ]
    : [];
  await transactWrite([{ item: customerUpdate(tenant, before, after), onConditionFailure: customerMoved }, ...emailMove, event]);
}

/**
 * Deletes the customer, its email marker and all its addresses, and lowers the total — all or
 * nothing. The condition on `open_orders` lets the orders slice block deletion in the database.
 */
export async function deleteCustomer(tenant: Tenant, customer: CustomerRecord, addresses: AddressRecord[]): Promise<void> {
  const remove = versionedDelete(tenantKeys.customer(tenant, customer.id), customer.version, 'open_orders');
  await transactWrite([
    { item: remove, onConditionFailure: customerMoved },
    // Its marker: a guest has none, and another customer's of the same email must stay.
    ...(customer.guest ? [] : [{ Delete: { TableName: tableName(), Key: tenantKeys.customerEmail(tenant, customer.email) } }]),
    // Its login, if it has one (customer accounts): a login never outlives its customer.
    { Delete: { TableName: tableName(), Key: customerAuthKeys.login(tenant, customer.id) } },
    adjustTotal(tenant, CUSTOMERS, -1),
    ...addresses.map((address): TransactItem => ({
      Delete: { TableName: tableName(), Key: tenantKeys.address(tenant, customer.id, address.id) },
    })),
  ]);
}

/**
 * Orders that are neither completed nor cancelled block deletion (the orders slice keeps the
 * count in its own transactions); read after a failed delete to tell the caller why.
 */
export async function openOrderCount(tenant: Tenant, id: number): Promise<number> {
  const result = await dynamo().send(
    new GetCommand({
      TableName: tableName(),
      Key: tenantKeys.customer(tenant, id),
      ProjectionExpression: 'open_orders',
      ConsistentRead: true,
    }),
  );
  return Number(result.Item?.open_orders ?? 0);
}

export const tooManyAddresses = () =>
  new ConflictError(`A customer can have at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses`, [
    { field: 'addresses', message: `limit of ${MAX_ADDRESSES_PER_CUSTOMER} reached` },
  ]);

export type DefaultChange = 'set' | 'set-if-none' | 'keep';

/**
 * Adds an address. The customer update does not depend on the customer's version (so concurrent
 * additions do not collide): the count is an atomic increment bounded by a condition, and the
 * default pointer is either set outright or set only while none exists (a race there is a
 * VersionConflict, and the service retries with a fresh read).
 */
export async function insertAddress(
  tenant: Tenant,
  address: AddressRecord,
  makeDefault: DefaultChange,
  event: TransactItem,
): Promise<void> {
  const pointer = defaultPointer(address.type);
  const sets = ['address_count = if_not_exists(address_count, :zero) + :one', '#version = #version + :one', 'updated_at = :now'];
  const conditions = ['attribute_exists(pk)', '(attribute_not_exists(address_count) OR address_count < :max)'];
  if (makeDefault !== 'keep') sets.push('#pointer = :id');
  if (makeDefault === 'set-if-none') conditions.push('attribute_not_exists(#pointer)');
  await transactWrite([
    addressPut(tenant, address),
    {
      item: {
        Update: {
          TableName: tableName(),
          Key: tenantKeys.customer(tenant, address.customer_id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: { '#version': 'version', ...(makeDefault !== 'keep' ? { '#pointer': pointer } : {}) },
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':max': MAX_ADDRESSES_PER_CUSTOMER,
            ':now': address.created_at,
            ...(makeDefault !== 'keep' ? { ':id': address.id } : {}),
          },
        },
      },
      onConditionFailure: customerMoved,
    },
    event,
  ]);
}

export async function saveAddress(
  tenant: Tenant,
  before: CustomerRecord,
  after: CustomerRecord,
  address: AddressRecord,
  event: TransactItem,
): Promise<void> {
  const update: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.address(tenant, address.customer_id, address.id),
      ...buildUpdate(storedAddress.attributes(address, 'update')),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
  await transactWrite([
    { item: update, onConditionFailure: () => new NotFoundError('address', address.id) },
    { item: customerUpdate(tenant, before, after), onConditionFailure: customerMoved },
    event,
  ]);
}

export async function deleteAddress(
  tenant: Tenant,
  before: CustomerRecord,
  after: CustomerRecord,
  address: AddressRecord,
  event: TransactItem,
): Promise<void> {
  const update = customerUpdate(tenant, before, after, { set: 'address_count = address_count - :one', values: { ':one': 1 } });
  const remove: TransactItem = {
    Delete: {
      TableName: tableName(),
      Key: tenantKeys.address(tenant, address.customer_id, address.id),
      ConditionExpression: 'attribute_exists(pk)',
    },
  };
  await transactWrite([
    { item: remove, onConditionFailure: () => new NotFoundError('address', address.id) },
    { item: update, onConditionFailure: customerMoved },
    event,
  ]);
}

export async function findCustomerIdByEmail(tenant: Tenant, email: string, consistent = false): Promise<number | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: tenantKeys.customerEmail(tenant, email), ConsistentRead: consistent }),
  );
  return result.Item ? Number(result.Item.customer_id) : undefined;
}

type CustomerPage = { items: CustomerRecord[]; hasMore: boolean } & Total;

/** A list request: a page number, or the customers after `after` (a cursor: the customer named by `starting_after`). */
export interface CustomerPageRequest extends PageRequest {
  after?: CustomerRecord;
}

/** The window of a page: skipped by number, or started after the cursor customer's place in the list (its sort key there). */
function windowOf(tenant: Tenant, query: CollectionQuery, page: CustomerPageRequest, sortKey: (customer: CustomerRecord) => string) {
  const { after } = page;
  return {
    perPage: page.perPage,
    offset: (page.page - 1) * page.perPage,
    startAfter: after && cursorKeys.customer(tenant, after.id, { index: query.index, partition: query.partition, sortKey: sortKey(after) }),
  };
}

export async function listCustomers(tenant: Tenant, page: CustomerPageRequest): Promise<CustomerPage> {
  const query: CollectionQuery = { index: 'gsi1', partition: tenantKeys.customersCollection(tenant), newestFirst: true };
  const [window, total] = await Promise.all([
    readWindow(
      query,
      windowOf(tenant, query, page, (after) => createdSortKey(after.created_at, after.id)),
    ),
    readTotal(tenant, CUSTOMERS),
  ]);
  return { items: window.items.map(customerFromItem), hasMore: window.hasMore, total, capped: false };
}

/** Name-prefix search in name order; the total is counted on the keys-only index, up to TOTAL_CAP. */
export async function searchCustomersByName(tenant: Tenant, prefix: string, page: CustomerPageRequest): Promise<CustomerPage> {
  const query: CollectionQuery = {
    index: 'gsi2',
    partition: tenantKeys.customersByName(tenant),
    sortKeyPrefix: prefix.toLowerCase(),
    newestFirst: false,
  };
  const [window, count] = await Promise.all([
    readWindow(
      query,
      windowOf(tenant, query, page, (after) => nameSortKey(after.name, after.id)),
    ),
    countCollectionUpTo(query),
  ]);
  return { items: window.items.map(customerFromItem), hasMore: window.hasMore, ...count };
}

/**
 * Customers and their addresses in the single table. A customer and its addresses share one
 * partition; email uniqueness is a marker item written in the same transaction; list totals are
 * counters kept in the same transaction; every change is conditional on the customer's version.
 * Access patterns are listed in docs/data-model.md.
 */
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { countCollection, readPage, readTotal, type PageRequest } from '#shared/db/collections';
import { createdSortKey, tenantKeys } from '#shared/db/keys';
import { adjustTotal } from '#shared/db/sequences';
import { tableName, transactWrite, type TransactItem } from '#shared/db/table';
import { buildUpdate } from '#shared/db/update-expression';
import { padId } from '#shared/ids';
import { postalAddressFromItem } from '#shared/schemas/address';
import { DomainError, ConflictError, NotFoundError } from '#shared/errors';
import type { Address, AddressType, Customer } from './schema';

export const CUSTOMERS = 'customers';
/** Bounded so that deleting a customer with all its addresses fits one transaction. */
export const MAX_ADDRESSES_PER_CUSTOMER = 25;

export interface CustomerRecord extends Customer {
  version: number;
  defaults: Partial<Record<AddressType, number>>;
  addressCount: number;
}

export type AddressRecord = Omit<Address, 'is_default'>;

/** Raised when the customer changed between our read and our write; the service re-reads and retries. */
export class VersionConflict extends Error {}

type Item = Record<string, unknown>;

const text = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));

export function customerFromItem(item: Item): CustomerRecord {
  return {
    id: Number(item.id),
    name: String(item.name),
    email: String(item.email),
    phone: text(item.phone),
    company: text(item.company),
    vat_id: text(item.vat_id),
    notes: text(item.notes),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
    version: Number(item.version),
    defaults: {
      ...(item.default_billing_address_id ? { billing: Number(item.default_billing_address_id) } : {}),
      ...(item.default_shipping_address_id ? { shipping: Number(item.default_shipping_address_id) } : {}),
    },
    addressCount: Number(item.address_count ?? 0),
  };
}

export function addressFromItem(item: Item): AddressRecord {
  return {
    id: Number(item.id),
    customer_id: Number(item.customer_id),
    type: item.type as AddressType,
    ...postalAddressFromItem(item),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
  };
}

/** The customer's public fields as stored (index attributes follow from them). */
function customerAttributes(tenant: Tenant, customer: CustomerRecord): Item {
  return {
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    company: customer.company,
    vat_id: customer.vat_id,
    notes: customer.notes,
    updated_at: customer.updated_at,
    default_billing_address_id: customer.defaults.billing,
    default_shipping_address_id: customer.defaults.shipping,
    gsi2pk: tenantKeys.customersByName(tenant),
    gsi2sk: `${customer.name.toLowerCase()}#${padId(customer.id)}`,
  };
}

const emailMarker = (tenant: Tenant, email: string, customerId: number): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...tenantKeys.customerEmail(tenant, email), entity: 'CUSTOMER_EMAIL', customer_id: customerId },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

const emailTaken = (email: string) =>
  new ConflictError('A customer with this email already exists', [{ field: 'email', message: `${email} is already used by another customer` }]);

/** Update of the customer item, conditional on the version we read; bumps the version. */
function customerUpdate(tenant: Tenant, before: CustomerRecord, after: CustomerRecord, counters = ''): TransactItem {
  const parts = buildUpdate(customerAttributes(tenant, after), ['#version = :next', ...(counters ? [counters] : [])], {
    ':expected': before.version,
    ':next': before.version + 1,
  });
  return {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.customer(tenant, before.id),
      ...parts,
      ExpressionAttributeNames: { ...parts.ExpressionAttributeNames, '#version': 'version' },
      ConditionExpression: '#version = :expected',
    },
  };
}

export async function insertCustomer(tenant: Tenant, customer: CustomerRecord, event: TransactItem): Promise<void> {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...tenantKeys.customer(tenant, customer.id),
          entity: 'CUSTOMER',
          id: customer.id,
          created_at: customer.created_at,
          version: customer.version,
          address_count: 0,
          ...customerAttributes(tenant, customer),
          gsi1pk: tenantKeys.customersCollection(tenant),
          gsi1sk: createdSortKey(customer.created_at, customer.id),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    emailMarker(tenant, customer.email, customer.id),
    adjustTotal(tenant, CUSTOMERS, 1),
    event,
  ];
  await transactWrite(items, (index) => (index === 1 ? emailTaken(customer.email) : undefined));
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
export async function readCustomerAndAddress(tenant: Tenant, id: number, addressId: number): Promise<{ customer: CustomerRecord; address: AddressRecord }> {
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

export async function saveCustomer(tenant: Tenant, before: CustomerRecord, after: CustomerRecord, event: TransactItem): Promise<void> {
  const items: TransactItem[] = [customerUpdate(tenant, before, after)];
  const emailChanged = before.email.toLowerCase() !== after.email.toLowerCase();
  if (emailChanged) {
    items.push(emailMarker(tenant, after.email, after.id), {
      Delete: {
        TableName: tableName(),
        Key: tenantKeys.customerEmail(tenant, before.email),
        ConditionExpression: 'customer_id = :id',
        ExpressionAttributeValues: { ':id': before.id },
      },
    });
  }
  items.push(event);
  await transactWrite(items, (index) => {
    if (index === 0) return new VersionConflict();
    if (emailChanged && index === 1) return emailTaken(after.email);
    return undefined;
  });
}

/**
 * Deletes the customer, its email marker and all its addresses, and lowers the total — all or
 * nothing. The condition on `open_orders` lets the orders slice block deletion in the database.
 */
export async function deleteCustomer(tenant: Tenant, customer: CustomerRecord, addresses: AddressRecord[]): Promise<void> {
  const items: TransactItem[] = [
    {
      Delete: {
        TableName: tableName(),
        Key: tenantKeys.customer(tenant, customer.id),
        ConditionExpression: '#version = :expected AND (attribute_not_exists(open_orders) OR open_orders <= :zero)',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':expected': customer.version, ':zero': 0 },
      },
    },
    { Delete: { TableName: tableName(), Key: tenantKeys.customerEmail(tenant, customer.email) } },
    adjustTotal(tenant, CUSTOMERS, -1),
    ...addresses.map((address): TransactItem => ({ Delete: { TableName: tableName(), Key: tenantKeys.address(tenant, customer.id, address.id) } })),
  ];
  await transactWrite(items, (index) => (index === 0 ? new VersionConflict() : undefined));
}

/**
 * Orders that are neither completed nor cancelled block deletion (the orders slice keeps the
 * count in its own transactions); read after a failed delete to tell the caller why.
 */
export async function openOrderCount(tenant: Tenant, id: number): Promise<number> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: tenantKeys.customer(tenant, id), ProjectionExpression: 'open_orders', ConsistentRead: true }),
  );
  return Number(result.Item?.open_orders ?? 0);
}

function addressAttributes(address: AddressRecord): Item {
  return { type: address.type, ...postalAddressFromItem(address), updated_at: address.updated_at };
}

export const tooManyAddresses = () =>
  new DomainError('conflict', `A customer can have at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses`, [
    { field: 'addresses', message: `limit of ${MAX_ADDRESSES_PER_CUSTOMER} reached` },
  ]);

export type DefaultChange = 'set' | 'set-if-none' | 'keep';

/**
 * Adds an address. The customer update does not depend on the customer's version (so concurrent
 * additions do not collide): the count is an atomic increment bounded by a condition, and the
 * default pointer is either set outright or set only while none exists (a race there is a
 * VersionConflict, and the service retries with a fresh read).
 */
export async function insertAddress(tenant: Tenant, address: AddressRecord, makeDefault: DefaultChange, event: TransactItem): Promise<void> {
  const pointer = address.type === 'billing' ? 'default_billing_address_id' : 'default_shipping_address_id';
  const sets = ['address_count = if_not_exists(address_count, :zero) + :one', '#version = #version + :one', 'updated_at = :now'];
  const conditions = ['attribute_exists(pk)', '(attribute_not_exists(address_count) OR address_count < :max)'];
  if (makeDefault !== 'keep') sets.push('#pointer = :id');
  if (makeDefault === 'set-if-none') conditions.push('attribute_not_exists(#pointer)');
  await transactWrite(
    [
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...tenantKeys.address(tenant, address.customer_id, address.id),
            entity: 'ADDRESS',
            id: address.id,
            customer_id: address.customer_id,
            created_at: address.created_at,
            ...addressAttributes(address),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
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
      event,
    ],
    (index) => (index === 1 ? new VersionConflict() : undefined),
  );
}

export async function saveAddress(tenant: Tenant, before: CustomerRecord, after: CustomerRecord, address: AddressRecord, event: TransactItem): Promise<void> {
  const parts = buildUpdate(addressAttributes(address));
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: tenantKeys.address(tenant, address.customer_id, address.id),
          ...parts,
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      customerUpdate(tenant, before, after),
      event,
    ],
    (index) => (index === 0 ? new NotFoundError('address', address.id) : index === 1 ? new VersionConflict() : undefined),
  );
}

export async function deleteAddress(tenant: Tenant, before: CustomerRecord, after: CustomerRecord, address: AddressRecord, event: TransactItem): Promise<void> {
  const update = customerUpdate(tenant, before, after, 'address_count = address_count - :one');
  update.Update!.ExpressionAttributeValues = { ...update.Update!.ExpressionAttributeValues, ':one': 1 };
  await transactWrite(
    [
      { Delete: { TableName: tableName(), Key: tenantKeys.address(tenant, address.customer_id, address.id), ConditionExpression: 'attribute_exists(pk)' } },
      update,
      event,
    ],
    (index) => (index === 0 ? new NotFoundError('address', address.id) : index === 1 ? new VersionConflict() : undefined),
  );
}

export async function findCustomerIdByEmail(tenant: Tenant, email: string): Promise<number | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.customerEmail(tenant, email) }));
  return result.Item ? Number(result.Item.customer_id) : undefined;
}

export async function listCustomers(tenant: Tenant, page: PageRequest): Promise<{ items: CustomerRecord[]; total: number }> {
  const [items, total] = await Promise.all([
    readPage({ index: 'gsi1', partition: tenantKeys.customersCollection(tenant), newestFirst: true }, page),
    readTotal(tenant, CUSTOMERS),
  ]);
  return { items: items.map(customerFromItem), total };
}

/** Name-prefix search in name order; the total is counted on the keys-only index. */
export async function searchCustomersByName(tenant: Tenant, prefix: string, page: PageRequest): Promise<{ items: CustomerRecord[]; total: number }> {
  const query = { index: 'gsi2' as const, partition: tenantKeys.customersByName(tenant), sortKeyPrefix: prefix.toLowerCase(), newestFirst: false };
  const [items, total] = await Promise.all([readPage(query, page), countCollection(query)]);
  return { items: items.map(customerFromItem), total };
}

/**
 * Customer and address operations. Each write re-reads and retries when the customer changed
 * under it (optimistic locking on `version`), and writes its `customer.*` event in the same
 * transaction (address changes are customer updates).
 */
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import type { TransactionPart, TransactItem } from '#shared/db/table';
import { ConflictError, VersionConflict } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { eventPut } from '#shared/events/outbox';
import { customerCreated, customerUpdated } from './events';
import * as repo from './repository';
import type { Address, AddressCreate, AddressUpdate, Customer, CustomerCreate, CustomerListQuery, CustomerUpdate } from './schema';
import { defaultPointer, storedAddress, storedCustomer, type AddressRecord, type CustomerRecord } from './stored';

const withRetry = <T>(operation: () => Promise<T>): Promise<T> => retryOnVersionConflict('customer', operation);

const presentCustomer: typeof storedCustomer.view = (value) => storedCustomer.view(value);

/** The address as responses show it: `is_default` from the customer's default pointer of its type. */
const presentAddress = (address: AddressRecord, customer: CustomerRecord): Address =>
  storedAddress.view({ ...address, is_default: customer[defaultPointer(address.type)] === address.id });

/** A customer record as created: no addresses, no orders yet. */
function newCustomerRecord(id: number, input: CustomerCreate, guest: boolean, now: string): CustomerRecord {
  return {
    id,
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    company: input.company ?? null,
    vat_id: input.vat_id ?? null,
    notes: input.notes ?? null,
    guest,
    created_at: now,
    updated_at: now,
    version: 1,
    default_billing_address_id: null,
    default_shipping_address_id: null,
    address_count: 0,
    open_orders: 0,
  };
}

export async function createCustomer(tenant: Tenant, input: CustomerCreate): Promise<Customer> {
  const { customer, writes } = await customerCreation(tenant, input);
  await repo.insertCustomer(writes);
  return customer;
}

/**
 * A new customer (its id taken) and the writes that create it with its `customer.created` event,
 * for a caller that writes them in a transaction of its own with more (a confirmed registration:
 * the login with it, all or nothing). `onEmailTaken`: what a customer of that email, made
 * meanwhile, means to the caller (a 409 by default).
 */
export async function customerCreation(
  tenant: Tenant,
  input: CustomerCreate,
  onEmailTaken?: () => Error,
): Promise<{ customer: Customer; writes: (TransactItem | TransactionPart)[] }> {
  const customer = newCustomerRecord(await nextId(tenant, 'customer'), input, false, new Date().toISOString());
  const presented = presentCustomer(customer);
  return {
    customer: presented,
    writes: repo.customerInsertion(tenant, customer, eventPut(tenant, customerCreated, { customer: presented }).item, onEmailTaken),
  };
}

/** A guest checkout's customer, not yet written: its writes join the order's own transaction. */
export interface GuestCustomer {
  customer: CustomerRecord;
  /** Its put — holding the counters of the order it is made with (`counts`) — its list total and `customer.created`. */
  creation: (counts: Record<string, number>) => TransactItem[];
}

/**
 * The customer of a guest checkout (a storefront's publishable key): made anew for each checkout
 * from the name and email the guest sent, whether or not a customer of that email exists — so a
 * guest never orders as another customer, sees nothing of its record and cannot tell it exists.
 * It holds no email marker (the email stays free for the shop's customer or a registration).
 * Only its id is taken here; the customer is written in the order's transaction, so a checkout
 * that is refused (or loses to a concurrent one) leaves no customer behind.
 */
export async function draftGuestCustomer(tenant: Tenant, guest: { name: string; email: string }, now = new Date()): Promise<GuestCustomer> {
  const customer = newCustomerRecord(await nextId(tenant, 'customer'), guest, true, now.toISOString());
  const event = eventPut(tenant, customerCreated, { customer: presentCustomer(customer) }, now).item;
  return { customer, creation: (counts) => repo.guestCustomerInsertion(tenant, customer, counts, event) };
}

export async function getCustomer(tenant: Tenant, id: number): Promise<Customer> {
  return presentCustomer(await repo.requireCustomer(tenant, id));
}

export async function updateCustomer(tenant: Tenant, id: number, changes: CustomerUpdate): Promise<Customer> {
  return withRetry(async () => {
    const before = await repo.requireCustomer(tenant, id);
    const after: CustomerRecord = { ...before, updated_at: new Date().toISOString() };
    for (const [field, value] of Object.entries(changes) as [keyof CustomerUpdate, unknown][]) {
      if (value !== undefined) (after as unknown as Record<string, unknown>)[field] = value;
    }
    const presented = presentCustomer(after);
    await repo.saveCustomer(tenant, before, after, eventPut(tenant, customerUpdated, { customer: presented }).item);
    return presented;
  });
}

export async function deleteCustomer(tenant: Tenant, id: number): Promise<{ id: number; deleted: true }> {
  return withRetry(async () => {
    const { customer, addresses } = await repo.readCustomerWithAddresses(tenant, id);
    try {
      await repo.deleteCustomer(tenant, customer, addresses);
    } catch (error) {
      const open = error instanceof VersionConflict ? await repo.openOrderCount(tenant, id) : 0;
      if (open > 0) {
        throw new ConflictError(
          `This customer has ${open} open order${open === 1 ? '' : 's'} (not completed or cancelled); complete or cancel them first`,
          [{ field: 'id', message: `customer has ${open} open order${open === 1 ? '' : 's'}` }],
        );
      }
      throw error;
    }
    return { id, deleted: true as const };
  });
}

/** The cursor's customer: the one `starting_after` names (422 when the tenant has none). */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<CustomerRecord | undefined> {
  return cursorEntry(id, 'customer', (id) => repo.readCustomer(tenant, id));
}

/** A page of customers: `total` exact from the counter, or counted up to a cap for a name search (`capped`). */
export async function listCustomers(
  tenant: Tenant,
  query: CustomerListQuery,
): Promise<{ items: Customer[]; total: number; capped: boolean; hasMore: boolean }> {
  if (query.email !== undefined) {
    // Email is unique per tenant: the marker item answers the filter in one read (never with a cursor: the schema refuses it).
    const id = await repo.findCustomerIdByEmail(tenant, query.email);
    const customer = id === undefined ? undefined : await repo.readCustomer(tenant, id);
    const matches = customer && (query.q === undefined || customer.name.toLowerCase().startsWith(query.q.toLowerCase())) ? [customer] : [];
    return { items: query.page === 1 ? matches.map(presentCustomer) : [], total: matches.length, capped: false, hasMore: false };
  }
  const after = await cursorOf(tenant, query.starting_after);
  const page: repo.CustomerPageRequest = { page: query.page, perPage: query.per_page, after };
  const result = query.q !== undefined ? await repo.searchCustomersByName(tenant, query.q, page) : await repo.listCustomers(tenant, page);
  return { ...result, items: result.items.map(presentCustomer) };
}

// Addresses

/**
 * Applies an update's default flag to the customer's per-type default pointers. Changing the type
 * of a default address takes its default status away from the old type; it becomes the new type's
 * default only when asked.
 */
function withDefaults(
  customer: CustomerRecord,
  address: AddressRecord,
  isDefault: boolean | undefined,
  previousType: AddressRecord['type'],
): CustomerRecord {
  const after: CustomerRecord = { ...customer, updated_at: address.updated_at };
  if (previousType !== address.type && after[defaultPointer(previousType)] === address.id) after[defaultPointer(previousType)] = null;
  if (isDefault === true) after[defaultPointer(address.type)] = address.id;
  else if (isDefault === false && after[defaultPointer(address.type)] === address.id) after[defaultPointer(address.type)] = null;
  return after;
}

function addressEvent(tenant: Tenant, customer: CustomerRecord, address: Address, action: 'created' | 'updated' | 'deleted') {
  return eventPut(tenant, customerUpdated, { customer: presentCustomer(customer), address, change: `address.${action}` }).item;
}

export async function listAddresses(tenant: Tenant, customerId: number): Promise<Address[]> {
  const { customer, addresses } = await repo.readCustomerWithAddresses(tenant, customerId);
  return addresses.map((address) => presentAddress(address, customer));
}

export async function getAddress(tenant: Tenant, customerId: number, addressId: number): Promise<Address> {
  const { customer, address } = await repo.readCustomerAndAddress(tenant, customerId, addressId);
  return presentAddress(address, customer);
}

export async function createAddress(tenant: Tenant, customerId: number, input: AddressCreate): Promise<Address> {
  const customer = await repo.requireCustomer(tenant, customerId);
  if (customer.address_count >= repo.MAX_ADDRESSES_PER_CUSTOMER) throw repo.tooManyAddresses();
  const id = await nextId(tenant, 'address');
  const now = new Date().toISOString();
  const { is_default, ...fields } = input;
  const address: AddressRecord = {
    id,
    customer_id: customerId,
    is_default: false,
    ...fields,
    company: fields.company ?? null,
    line2: fields.line2 ?? null,
    region: fields.region ?? null,
    created_at: now,
    updated_at: now,
  };
  return withRetry(async () => {
    const current = await repo.requireCustomer(tenant, customerId);
    if (current.address_count >= repo.MAX_ADDRESSES_PER_CUSTOMER) throw repo.tooManyAddresses();
    // The first address of a type becomes its default unless the caller says otherwise.
    const change: repo.DefaultChange =
      is_default === true ? 'set' : is_default === undefined && current[defaultPointer(address.type)] === null ? 'set-if-none' : 'keep';
    const after: CustomerRecord = { ...current, updated_at: now, ...(change === 'keep' ? {} : { [defaultPointer(address.type)]: id }) };
    const presented = presentAddress(address, after);
    await repo.insertAddress(tenant, address, change, addressEvent(tenant, after, presented, 'created'));
    return presented;
  });
}

export async function updateAddress(tenant: Tenant, customerId: number, addressId: number, changes: AddressUpdate): Promise<Address> {
  return withRetry(async () => {
    const { customer, address: existing } = await repo.readCustomerAndAddress(tenant, customerId, addressId);
    const { is_default, ...fields } = changes;
    const address: AddressRecord = { ...existing, updated_at: new Date().toISOString() };
    for (const [field, value] of Object.entries(fields)) {
      if (value !== undefined) (address as unknown as Record<string, unknown>)[field] = value;
    }
    const after = withDefaults(customer, address, is_default, existing.type);
    const presented = presentAddress(address, after);
    await repo.saveAddress(tenant, customer, after, address, addressEvent(tenant, after, presented, 'updated'));
    return presented;
  });
}

export async function deleteAddress(tenant: Tenant, customerId: number, addressId: number): Promise<{ id: number; deleted: true }> {
  return withRetry(async () => {
    const { customer, address } = await repo.readCustomerAndAddress(tenant, customerId, addressId);
    const wasDefault = customer[defaultPointer(address.type)] === address.id;
    const after: CustomerRecord = {
      ...customer,
      updated_at: new Date().toISOString(),
      ...(wasDefault ? { [defaultPointer(address.type)]: null } : {}),
    };
    await repo.deleteAddress(
      tenant,
      customer,
      after,
      address,
      addressEvent(tenant, after, storedAddress.view({ ...address, is_default: wasDefault }), 'deleted'),
    );
    return { id: addressId, deleted: true as const };
  });
}

/**
 * Customer and address operations. Each write re-reads and retries when the customer changed
 * under it (optimistic locking on `version`), and writes its `customer.*` event in the same
 * transaction (address changes are customer updates).
 */
import { getAccount } from '#shared/accounts/repository';
import type { RecordChange } from '#shared/audit/stored';
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import type { TransactionPart, TransactItem } from '#shared/db/table';
import { ConflictError, NotFoundError, ValidationError, VersionConflict } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { eventPut } from '#shared/events/outbox';
import { checkVatId, type ValidVatId } from '#shared/tax/vat-id';
import { viesClient } from '#shared/tax/vies';
import { customerCreated, customerUpdated } from './events';
import * as repo from './repository';
import type { Address, AddressCreate, AddressUpdate, Customer, CustomerCreate, CustomerListQuery, CustomerUpdate } from './schema';
import { defaultPointer, storedAddress, storedCustomer, type AddressRecord, type CustomerRecord } from './stored';
import { newCustomerRecord } from './guest';
import { customerTaxTreatment, storedValidationOf, type TreatmentContext } from './tax-profile';

const withRetry = <T>(operation: () => Promise<T>): Promise<T> => retryOnVersionConflict('customer', operation);

/** The customer as responses and events show it: its tax treatment derived for the seller's and its billing country. */
function presentCustomer(customer: CustomerRecord, context: TreatmentContext): Customer {
  const decision = customerTaxTreatment(customer, context);
  return storedCustomer.view({ ...customer, tax_treatment: decision.treatment, tax_treatment_warning: decision.warning });
}

/** The account company's side of a customer's VAT: its country (the seller's) and its own VAT ID, VIES's requester. */
interface Seller {
  country: string | null;
  requester?: ValidVatId;
}

async function sellerOf(tenant: Tenant): Promise<Seller> {
  const company = (await getAccount(tenant.accountId))?.company ?? null;
  const own = company?.vat_id ? checkVatId(company.vat_id) : undefined;
  return { country: company?.address?.country ?? null, ...(own?.valid ? { requester: own } : {}) };
}

/** The country of the customer's default billing address among its addresses; null when it has none. */
const billingCountryOf = (customer: CustomerRecord, addresses: readonly AddressRecord[]): string | null =>
  addresses.find((address) => address.id === customer.default_billing_address_id)?.country ?? null;

/** A VAT ID as sent: normalised and checked offline; malformed is a 422 naming `vat_id` with the check's message. */
function requireVatId(input: string): ValidVatId {
  const result = checkVatId(input);
  if (!result.valid) throw new ValidationError('The VAT ID is not valid', [{ field: 'vat_id', message: result.message }]);
  return result;
}

/** VIES's answer for the number, as stored; asked once however often a write is retried. */
function viesAsker(seller: Seller) {
  const answers = new Map<string, Promise<NonNullable<CustomerRecord['vat_validation']>>>();
  return (vatId: ValidVatId) => {
    let answer = answers.get(vatId.number);
    if (!answer) {
      const options = seller.requester ? { requester: seller.requester } : {};
      answer = viesClient().checkVatNumber(vatId, options).then(storedValidationOf);
      answers.set(vatId.number, answer);
    }
    return answer;
  };
}

/** The audit entry of an override set or cleared. */
const overrideChange = (id: number, before: CustomerRecord['tax_treatment_override'], after: CustomerRecord['tax_treatment_override']) => ({
  resource: 'customer',
  resource_id: String(id),
  field: 'tax_treatment_override',
  old: before,
  new: after,
});

/** The address as responses show it: `is_default` from the customer's default pointer of its type. */
const presentAddress = (address: AddressRecord, customer: CustomerRecord): Address =>
  storedAddress.view({ ...address, is_default: customer[defaultPointer(address.type)] === address.id });

/** Creates a customer; an override set with it is reported to `recordChange` (the call's audit record) once written. */
export async function createCustomer(tenant: Tenant, input: CustomerCreate, recordChange?: RecordChange): Promise<Customer> {
  const { customer, writes } = await customerCreation(tenant, input);
  await repo.insertCustomer(writes);
  if (customer.tax_treatment_override !== null) recordChange?.(overrideChange(customer.id, null, customer.tax_treatment_override));
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
  // Checked before anything is written (the id taken): a malformed VAT ID changes nothing.
  const vatId = input.vat_id ? requireVatId(input.vat_id) : null;
  const seller = await sellerOf(tenant);
  // VIES before the write; unavailable is an answer too, stored, and never blocks the creation.
  const vat = vatId ? { number: vatId.number, validation: await viesAsker(seller)(vatId) } : null;
  const customer = newCustomerRecord(await nextId(tenant, 'customer'), input, false, new Date().toISOString(), vat);
  // A new customer has no address yet: no billing country.
  const presented = presentCustomer(customer, { sellerCountry: seller.country, billingCountry: null });
  return {
    customer: presented,
    writes: repo.customerInsertion(tenant, customer, eventPut(tenant, customerCreated, { customer: presented }).item, onEmailTaken),
  };
}

export async function getCustomer(tenant: Tenant, id: number): Promise<Customer> {
  const [{ customer, addresses }, seller] = await Promise.all([repo.readCustomerWithAddresses(tenant, id), sellerOf(tenant)]);
  return presentCustomer(customer, { sellerCountry: seller.country, billingCountry: billingCountryOf(customer, addresses) });
}

/**
 * The customer without its tax treatment, for a view that shows none (the customer's own): one
 * GetItem, neither the account nor the addresses read.
 */
export async function getCustomerDetails(tenant: Tenant, id: number): Promise<Omit<Customer, 'tax_treatment' | 'tax_treatment_warning'>> {
  const {
    tax_treatment: _treatment,
    tax_treatment_warning: _warning,
    ...details
  } = storedCustomer.view(await repo.requireCustomer(tenant, id));
  return details;
}

/**
 * Changes the fields sent. A VAT ID set or changed is asked of VIES before the write and its answer
 * stored (unavailable too: it never blocks the update); cleared, its answer goes with it. An override
 * set or cleared is reported to `recordChange` (the call's audit record) once written.
 */
export async function updateCustomer(tenant: Tenant, id: number, changes: CustomerUpdate, recordChange?: RecordChange): Promise<Customer> {
  const vatId = changes.vat_id ? requireVatId(changes.vat_id) : null;
  const seller = await sellerOf(tenant);
  const askVies = viesAsker(seller);
  const { before, presented } = await withRetry(async () => {
    const { customer: before, addresses } = await repo.readCustomerWithAddresses(tenant, id, true);
    const after: CustomerRecord = { ...before, updated_at: new Date().toISOString() };
    for (const [field, value] of Object.entries(changes) as [keyof CustomerUpdate, unknown][]) {
      if (value !== undefined) (after as unknown as Record<string, unknown>)[field] = value;
    }
    if (changes.vat_id === null) after.vat_validation = null;
    if (vatId) {
      after.vat_id = vatId.number;
      if (vatId.number !== before.vat_id || before.vat_validation === null) after.vat_validation = await askVies(vatId);
    }
    const presented = presentCustomer(after, { sellerCountry: seller.country, billingCountry: billingCountryOf(after, addresses) });
    await repo.saveCustomer(tenant, before, after, eventPut(tenant, customerUpdated, { customer: presented }).item);
    return { before, presented };
  });
  if (presented.tax_treatment_override !== before.tax_treatment_override) {
    recordChange?.(overrideChange(id, before.tax_treatment_override, presented.tax_treatment_override));
  }
  return presented;
}

/** `POST /v1/customers/{id}/vat-check`: asks VIES again for the customer's VAT ID now and stores the answer (422 without one). */
export async function checkCustomerVatId(tenant: Tenant, id: number): Promise<Customer> {
  const seller = await sellerOf(tenant);
  const askVies = viesAsker(seller);
  return withRetry(async () => {
    const { customer: before, addresses } = await repo.readCustomerWithAddresses(tenant, id, true);
    if (!before.vat_id) {
      throw new ValidationError('The customer has no VAT ID to check', [
        { field: 'vat_id', message: 'is not set (set it with PUT /v1/customers/{id})' },
      ]);
    }
    const vatId = requireVatId(before.vat_id);
    const after: CustomerRecord = {
      ...before,
      vat_id: vatId.number,
      vat_validation: await askVies(vatId),
      updated_at: new Date().toISOString(),
    };
    const presented = presentCustomer(after, { sellerCountry: seller.country, billingCountry: billingCountryOf(after, addresses) });
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
    const items = query.page === 1 ? await presentCustomers(tenant, matches) : [];
    return { items, total: matches.length, capped: false, hasMore: false };
  }
  const after = await cursorOf(tenant, query.starting_after);
  const page: repo.CustomerPageRequest = { page: query.page, perPage: query.per_page, after };
  const result = query.q !== undefined ? await repo.searchCustomersByName(tenant, query.q, page) : await repo.listCustomers(tenant, page);
  return { ...result, items: await presentCustomers(tenant, result.items) };
}

/** A page of customers as shown: the seller and the customers' default billing addresses read at once (one BatchGetItem). */
async function presentCustomers(tenant: Tenant, customers: readonly CustomerRecord[]): Promise<Customer[]> {
  if (customers.length === 0) return [];
  const [seller, billing] = await Promise.all([sellerOf(tenant), repo.readDefaultBillingAddresses(tenant, customers)]);
  return customers.map((customer) =>
    presentCustomer(customer, { sellerCountry: seller.country, billingCountry: billing.get(customer.id)?.country ?? null }),
  );
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

/** `customer.updated` for an address change: `context`, the customer's tax treatment after it (its billing country may have moved). */
function addressEvent(
  tenant: Tenant,
  customer: CustomerRecord,
  context: TreatmentContext,
  address: Address,
  action: 'created' | 'updated' | 'deleted',
) {
  return eventPut(tenant, customerUpdated, { customer: presentCustomer(customer, context), address, change: `address.${action}` }).item;
}

/** The customer with its addresses, one of them (404 when it has none of that id), and the seller, read at once. */
async function readForAddressChange(tenant: Tenant, customerId: number, addressId: number) {
  const [{ customer, addresses }, seller] = await Promise.all([repo.readCustomerWithAddresses(tenant, customerId, true), sellerOf(tenant)]);
  const address = addresses.find((candidate) => candidate.id === addressId);
  if (!address) throw new NotFoundError('address', addressId);
  return { customer, addresses, address, seller };
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
  // The first attempt writes on this read; a retry reads the customer again.
  let read: Promise<{ customer: CustomerRecord; addresses: AddressRecord[] }> | undefined = repo.readCustomerWithAddresses(
    tenant,
    customerId,
    true,
  );
  const [{ customer }, seller] = await Promise.all([read, sellerOf(tenant)]);
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
    const { customer: current, addresses } = await (read ?? repo.readCustomerWithAddresses(tenant, customerId, true));
    read = undefined;
    if (current.address_count >= repo.MAX_ADDRESSES_PER_CUSTOMER) throw repo.tooManyAddresses();
    // The first address of a type becomes its default unless the caller says otherwise.
    const change: repo.DefaultChange =
      is_default === true ? 'set' : is_default === undefined && current[defaultPointer(address.type)] === null ? 'set-if-none' : 'keep';
    const after: CustomerRecord = { ...current, updated_at: now, ...(change === 'keep' ? {} : { [defaultPointer(address.type)]: id }) };
    const presented = presentAddress(address, after);
    const context = { sellerCountry: seller.country, billingCountry: billingCountryOf(after, [...addresses, address]) };
    await repo.insertAddress(tenant, address, change, addressEvent(tenant, after, context, presented, 'created'));
    return presented;
  });
}

export async function updateAddress(tenant: Tenant, customerId: number, addressId: number, changes: AddressUpdate): Promise<Address> {
  return withRetry(async () => {
    const { customer, addresses, address: existing, seller } = await readForAddressChange(tenant, customerId, addressId);
    const { is_default, ...fields } = changes;
    const address: AddressRecord = { ...existing, updated_at: new Date().toISOString() };
    for (const [field, value] of Object.entries(fields)) {
      if (value !== undefined) (address as unknown as Record<string, unknown>)[field] = value;
    }
    const after = withDefaults(customer, address, is_default, existing.type);
    const presented = presentAddress(address, after);
    const others = addresses.filter((other) => other.id !== addressId);
    const context = { sellerCountry: seller.country, billingCountry: billingCountryOf(after, [...others, address]) };
    await repo.saveAddress(tenant, customer, after, address, addressEvent(tenant, after, context, presented, 'updated'));
    return presented;
  });
}

export async function deleteAddress(tenant: Tenant, customerId: number, addressId: number): Promise<{ id: number; deleted: true }> {
  return withRetry(async () => {
    const { customer, addresses, address, seller } = await readForAddressChange(tenant, customerId, addressId);
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
      addressEvent(
        tenant,
        after,
        { sellerCountry: seller.country, billingCountry: billingCountryOf(after, addresses) },
        storedAddress.view({ ...address, is_default: wasDefault }),
        'deleted',
      ),
    );
    return { id: addressId, deleted: true as const };
  });
}

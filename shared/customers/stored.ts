/**
 * How customers and their addresses are stored (see docs/data-model.md): the customer item and
 * its addresses share one partition (one Query reads a customer with all its addresses); the
 * customer item also carries the counters other writers move (addresses, open orders — and the
 * orders' per-status counts, read by the orders slice); email uniqueness is a marker item.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, nameSortKey, tenantKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { postalAddressShape } from '#shared/schemas/address';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import { TAX_TREATMENTS } from '#shared/tax/treatment';

export const ADDRESS_TYPES = ['billing', 'shipping'] as const;

/** The VIES answer for the customer's VAT ID (shared/tax/vies.ts), as stored when it was asked. */
const vatValidation = /* @__PURE__ */ (() =>
  c.object(
    {
      status: field(c.enumOf(['valid', 'invalid', 'unavailable'] as const)).describe('`unavailable`: VIES gave no answer'),
      country: field(c.string).describe('The VAT ID prefix'),
      number: field(c.string).describe('The VAT ID asked for'),
      name: field(c.nullable(c.string)).describe("The trader's name"),
      address: field(c.nullable(c.string)).describe("The trader's address"),
      checked_at: field(c.timestamp).describe('When VIES answered'),
      consultation_number: field(c.nullable(c.string)).describe("VIES's proof of the check"),
      unavailable_reason: field(c.nullable(c.string)).describe('Why unavailable'),
    },
    { id: 'VatValidation' },
  ))();

export const storedCustomer = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    name: field(c.string),
    email: field(c.string),
    phone: field(c.nullable(c.string)),
    company: field(c.nullable(c.string)),
    vat_id: field(c.nullable(c.string)).describe('EU VAT ID, checked with VIES'),
    vat_validation: field(c.nullable(vatValidation)).describe("VIES's answer for vat_id when last checked"),
    tax_treatment_override: field(c.nullable(c.enumOf(TAX_TREATMENTS))).describe("The shop's choice (audited)"),
    /** Derived (never stored): the service sets them before the view (tax-profile.ts). */
    tax_treatment: field(c.enumOf(TAX_TREATMENTS)).derived().describe('The override, else derived'),
    tax_treatment_warning: field(c.nullable(c.string)).derived().describe('Why the treatment may be wrong'),
    notes: field(c.nullable(c.string)),
    /**
     * Made by a guest checkout (a storefront's publishable key): the name and email the guest gave,
     * never an existing customer's record. A guest holds no email marker — its email stays free for
     * a customer of the shop's or a registration — and cannot log in (docs/carts.md#guests).
     */
    guest: field(c.boolean)
      .fixed()
      .describe("A guest checkout's customer: holds what the guest gave; its email is not reserved (another customer may have it)"),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().internal(),
    /** The default address of each type (the address's id), or none. */
    default_billing_address_id: field(c.nullable(c.int)).internal(),
    default_shipping_address_id: field(c.nullable(c.int)).internal(),
    /** Bounded (MAX_ADDRESSES_PER_CUSTOMER) so that deleting a customer with its addresses fits one transaction. */
    address_count: field(c.int).counter(),
    /** Orders neither completed nor cancelled (kept by the orders' transactions); > 0 blocks deletion. */
    open_orders: field(c.int).counter(),
  }))();

export const storedAddress = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    customer_id: field(c.int).fixed(),
    type: field(c.enumOf(ADDRESS_TYPES)),
    /** Whether the customer's default pointer of this type names this address. */
    is_default: field(c.boolean).derived(),
    ...postalAddressShape,
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
  }))();

export type CustomerRecord = RecordOf<typeof storedCustomer.shape>;
export type AddressRecord = RecordOf<typeof storedAddress.shape>;
export type AddressType = AddressRecord['type'];

export const CUSTOMERS = 'customers';

export const customerFromItem: typeof storedCustomer.read = (value) => storedCustomer.read(value);
export const addressFromItem: typeof storedAddress.read = (value) => storedAddress.read(value);

/** The customer's default-pointer attribute of an address type. */
export const defaultPointer = (type: AddressType) => `default_${type}_address_id` as const;

/** Index attributes of the customer item: newest first (gsi1, set once) and by name (gsi2, follows renames). */
const nameIndex = (tenant: Tenant, customer: CustomerRecord) => ({
  gsi2pk: tenantKeys.customersByName(tenant),
  gsi2sk: nameSortKey(customer.name, customer.id),
});

export function customerPut(tenant: Tenant, customer: CustomerRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.customer(tenant, customer.id),
        entity: 'CUSTOMER',
        ...storedCustomer.attributes(customer, 'put'),
        gsi1pk: tenantKeys.customersCollection(tenant),
        gsi1sk: createdSortKey(customer.created_at, customer.id),
        ...nameIndex(tenant, customer),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** What an update of the customer item writes (its own fields and the name index). */
export const customerChanges = (tenant: Tenant, customer: CustomerRecord) => ({
  ...storedCustomer.attributes(customer, 'update'),
  ...nameIndex(tenant, customer),
});

export function addressPut(tenant: Tenant, address: AddressRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.address(tenant, address.customer_id, address.id),
        entity: 'ADDRESS',
        ...storedAddress.attributes(address, 'put'),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Uniqueness marker: one per (tenant, lower-cased email), written in the same transaction as the customer (not a guest's). */
export const emailMarkerPut = (tenant: Tenant, email: string, customerId: number): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...tenantKeys.customerEmail(tenant, email), entity: 'CUSTOMER_EMAIL', customer_id: customerId },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** A transaction's check that the email still belongs to the customer (its marker names them). */
export const emailOwnerCheck = (tenant: Tenant, email: string, customerId: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: tenantKeys.customerEmail(tenant, email),
    ConditionExpression: 'customer_id = :id',
    ExpressionAttributeValues: { ':id': customerId },
  },
});

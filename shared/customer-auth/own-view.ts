/**
 * What a customer sees of their own record — `GET`/`PUT /v1/auth/me`, a login's `customer`, a
 * confirmed registration: their contact details, never what the shop keeps about them (`notes`,
 * and the record's bookkeeping: counters, default-address pointers, version). A list of the
 * fields shown, not of those hidden, so a field the shop's record gains later stays the shop's
 * until it is added here.
 */
import type { Customer } from '#shared/customers/schema';

export const OWN_CUSTOMER_FIELDS = ['id', 'email', 'name', 'phone', 'company', 'vat_id', 'created_at', 'updated_at'] as const;

export type OwnCustomer = Pick<Customer, (typeof OWN_CUSTOMER_FIELDS)[number]>;

/** The customer's own view of their record. */
export function ownView(customer: OwnCustomer): OwnCustomer {
  return Object.fromEntries(OWN_CUSTOMER_FIELDS.map((field) => [field, customer[field]])) as OwnCustomer;
}

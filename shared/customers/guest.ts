/**
 * The customer of a guest checkout, and the record every new customer starts from. Apart from
 * service.ts because the storefront's checkout imports it: that bundle must not carry the VAT ID
 * checks and the VIES client a shop's own customer creation needs.
 */
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import type { TransactItem } from '#shared/db/table';
import { eventPut } from '#shared/events/outbox';
import { customerCreated } from './events';
import * as repo from './repository';
import type { CustomerCreate } from './schema';
import { storedCustomer, type CustomerRecord } from './stored';

/** A customer record as created: no addresses, no orders yet (`vat`: its VAT ID checked, with VIES's answer). */
export function newCustomerRecord(
  id: number,
  input: Omit<CustomerCreate, 'vat_id'>,
  guest: boolean,
  now: string,
  vat: { number: string; validation: CustomerRecord['vat_validation'] } | null = null,
): CustomerRecord {
  return {
    id,
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    company: input.company ?? null,
    vat_id: vat?.number ?? null,
    vat_validation: vat?.validation ?? null,
    tax_treatment_override: input.tax_treatment_override ?? null,
    // Derived when shown (presentCustomer).
    tax_treatment: 'domestic',
    tax_treatment_warning: null,
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
  // A guest has no VAT ID, no override and no address: domestic, whatever the seller's country.
  const guestView = storedCustomer.view({ ...customer, tax_treatment: 'domestic', tax_treatment_warning: null });
  const event = eventPut(tenant, customerCreated, { customer: guestView }, now).item;
  return { customer, creation: (counts) => repo.guestCustomerInsertion(tenant, customer, counts, event) };
}

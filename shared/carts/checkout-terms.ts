/**
 * Who a cart's order is for, by caller (docs/carts.md#checkout): a secret key names the customer
 * (`customer_id`) and may set shipping and copy the customer's addresses; a publishable key checks
 * out a guest — `email` and `name`, the tenant's customer with that email reused or made — with
 * inline addresses only (a guest never sees or copies what a customer record holds) and the
 * shop's shipping; a customer token orders for its own customer.
 */
import type { Principal, Tenant } from '#shared/auth/principal';
import { findCustomerIdByEmail } from '#shared/customers/repository';
import { createCustomer } from '#shared/customers/service';
import { ConflictError, ValidationError, type ErrorDetail } from '#shared/errors';
import type { CartCheckout, CustomerCartCheckout } from './schema';
import type { OrderTerms } from './checkout';

const invalid = (problems: ErrorDetail[]) => new ValidationError('The checkout is invalid', problems);

/** The tenant's customer with this email, made when there is none (a concurrent checkout may make it first). */
async function guestCustomer(tenant: Tenant, email: string, name: string): Promise<number> {
  const found = await findCustomerIdByEmail(tenant, email);
  if (found !== undefined) return found;
  try {
    return (await createCustomer(tenant, { name, email })).id;
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const made = await findCustomerIdByEmail(tenant, email);
    if (made === undefined) throw error;
    return made;
  }
}

/**
 * The order's terms of a session cart's checkout, asked once the cart was found (an unknown cart is
 * 404 whatever the body says) and before anything is written: the caller's fields are checked first.
 */
export const sessionCheckoutTerms =
  (tenant: Tenant, caller: Pick<Principal, 'kind'>, body: CartCheckout): (() => Promise<OrderTerms>) =>
  () =>
    termsFor(tenant, caller, body);

async function termsFor(tenant: Tenant, caller: Pick<Principal, 'kind'>, body: CartCheckout): Promise<OrderTerms> {
  const problems: ErrorDetail[] = [];
  const addresses = {
    shipping_address_id: body.shipping_address_id,
    shipping_address: body.shipping_address,
    billing_address_id: body.billing_address_id,
    billing_address: body.billing_address,
  };
  if (caller.kind !== 'publishable') {
    if (body.customer_id === undefined) problems.push({ field: 'customer_id', message: 'Required with a secret key' });
    for (const name of ['email', 'name'] as const)
      if (body[name] !== undefined)
        problems.push({ field: name, message: 'only for a guest checkout (publishable key); send customer_id' });
    if (problems.length) throw invalid(problems);
    return { customer_id: body.customer_id!, shipping: body.shipping ?? 0, ...addresses, notes: body.notes };
  }
  if (body.customer_id !== undefined)
    problems.push({ field: 'customer_id', message: 'not taken with a publishable key: send email and name' });
  if (body.email === undefined) problems.push({ field: 'email', message: 'Required for a guest checkout' });
  if (body.name === undefined) problems.push({ field: 'name', message: 'Required for a guest checkout' });
  if (body.shipping !== undefined) problems.push({ field: 'shipping', message: 'is set by the shop; leave it out with a publishable key' });
  for (const name of ['shipping_address_id', 'billing_address_id'] as const)
    if (body[name] !== undefined) problems.push({ field: name, message: 'a guest gives addresses inline' });
  if (problems.length) throw invalid(problems);
  const guest = await guestCustomer(tenant, body.email!, body.name!);
  return {
    customer_id: guest,
    files_of: guest,
    shipping: 0,
    // Null, not "the customer's default": a guest never gets what an existing customer record holds.
    shipping_address: body.shipping_address ?? null,
    billing_address: body.billing_address ?? null,
    notes: body.notes,
  };
}

/** The signed-in customer's checkout: for themselves, the shop's shipping. */
export const customerCheckoutTerms =
  (customerId: number, body: CustomerCartCheckout): (() => Promise<OrderTerms>) =>
  async () => ({
    customer_id: customerId,
    files_of: customerId,
    shipping: 0,
    shipping_address_id: body.shipping_address_id,
    shipping_address: body.shipping_address,
    billing_address_id: body.billing_address_id,
    billing_address: body.billing_address,
    notes: body.notes,
  });

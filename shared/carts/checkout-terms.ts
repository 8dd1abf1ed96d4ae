/**
 * Who a cart's order is for, by caller (docs/carts.md#checkout): a secret key names the customer
 * (`customer_id`) and may set shipping and copy the customer's addresses — an order's creation, so
 * it needs `orders:write` as `POST /v1/orders` does; a publishable key checks out a guest — `email`
 * and `name` make a guest customer of its own, never the tenant's customer with that email — with
 * inline addresses only and the shop's shipping; a customer token orders for its own customer.
 */
import type { Principal } from '#shared/auth/principal';
import { ValidationError, type ErrorDetail } from '#shared/errors';
import type { CartCheckout, CustomerCartCheckout } from './schema';
import type { OrderTerms } from './checkout';

const invalid = (problems: ErrorDetail[]) => new ValidationError('The checkout is invalid', problems);

/**
 * The order's terms of a session cart's checkout, asked once the cart was found (an unknown cart is
 * 404 whatever the body says) and before anything is written: the caller's fields are checked first.
 * (A secret key's `orders:write` is the route's `secretScopes`, checked with its scopes by the guard.)
 */
export const sessionCheckoutTerms =
  (caller: Pick<Principal, 'kind'>, body: CartCheckout): (() => Promise<OrderTerms>) =>
  () =>
    termsFor(caller, body);

async function termsFor(caller: Pick<Principal, 'kind'>, body: CartCheckout): Promise<OrderTerms> {
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
  return {
    // A customer of the guest's own, whether or not the email is a customer's (checkout.ts): it has no files and no addresses.
    guest: { name: body.name!, email: body.email! },
    shipping: 0,
    // Null, not "the customer's default": a guest's customer has none (and never another's).
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

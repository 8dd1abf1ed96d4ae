/**
 * What a customer access token may do with orders: its own only. It lists and reads the orders of
 * its customer (another customer's order is one it cannot see: 404), and creates orders for
 * itself — the customer is implied, naming another is 403, and the shipping charge is the shop's
 * to set (its body schema has none). An API key names the customer of the order it creates.
 */
import { customerOf, type Principal } from '#shared/auth/principal';
import { DomainError } from '#shared/errors';
import type { CustomerOrderCreate, OrderCreate, OrderListQuery } from './schema';

type Caller = Pick<Principal, 'kind' | 'customerId'>;

const notYours = () => new DomainError('forbidden', 'A customer access token acts for its own customer only');

/**
 * The order to create for this caller. A key sends OrderCreate (the customer named); a customer
 * token CustomerOrderCreate (validated in its place: no shipping), and its customer is implied.
 */
export function orderCreationFor(caller: Caller, request: OrderCreate | CustomerOrderCreate): OrderCreate {
  const own = customerOf(caller);
  if (own === undefined) return request as OrderCreate;
  if (request.customer_id !== undefined && request.customer_id !== own) throw notYours();
  return { ...request, customer_id: own, shipping: 0 };
}

/** The list query for this caller: a customer's own orders (asking for another customer's is 403). */
export function orderListFor(caller: Caller, query: OrderListQuery): OrderListQuery {
  const own = customerOf(caller);
  if (own === undefined) return query;
  if (query.customer_id !== undefined && query.customer_id !== own) throw notYours();
  return { ...query, customer_id: own };
}

/** The customer whose orders alone this caller may read; undefined for API keys (all of the tenant's). */
export const orderReaderOf = (caller: Caller): number | undefined => customerOf(caller);

/** How the orders' creation treats this caller's order: a customer's lines name files of that customer's own. */
export function orderOptionsFor(caller: Caller): { fileOwner?: number } {
  const own = customerOf(caller);
  return own === undefined ? {} : { fileOwner: own };
}

/**
 * What a customer access token may do with orders: its own only. It lists and reads the orders of
 * its customer (another customer's order is one it cannot see: 404), and creates orders for
 * itself — the customer is implied, naming another is 403, and the shipping charge is the shop's
 * to set. An API key names the customer of the order it creates.
 */
import { customerOf, type Principal } from '#shared/auth/principal';
import { DomainError, ValidationError } from '#shared/errors';
import type { OrderCreate, OrderCreateRequest, OrderListQuery } from './schema';

type Caller = Pick<Principal, 'kind' | 'customerId'>;

const notYours = () => new DomainError('forbidden', 'A customer access token acts for its own customer only');

/** The order to create for this caller: the customer settled (implied or required), shipping 0 when not sent. */
export function orderCreationFor(caller: Caller, request: OrderCreateRequest): OrderCreate {
  const own = customerOf(caller);
  if (own === undefined) {
    if (request.customer_id === undefined) {
      throw new ValidationError('The order is invalid', [{ field: 'customer_id', message: 'Required' }]);
    }
    return { ...request, customer_id: request.customer_id, shipping: request.shipping ?? 0 };
  }
  if (request.customer_id !== undefined && request.customer_id !== own) throw notYours();
  if (request.shipping !== undefined) {
    throw new ValidationError('The order is invalid', [
      { field: 'shipping', message: 'is set by the shop; leave it out with a customer access token' },
    ]);
  }
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

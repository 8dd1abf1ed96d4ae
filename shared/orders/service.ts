/**
 * Order creation, reading and lists. The server prices every line and computes every total;
 * an order, its stock, its counters and its `order.created` event are one transaction.
 * Changes after creation: update.ts.
 */
import { eventPut } from '#shared/events/outbox';
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/sequences';
import { NotFoundError, ValidationError, type ErrorDetail } from '#shared/errors';
import { addressChoices, resolveAddress } from './addresses';
import { orderTotals, priceLines, productIdsOf, stockLinesOf, type PricedLines } from './lines';
import { nextOrderNumber } from './numbering';
import { accountPricing, assertValid, readOwner, readProducts } from './reads';
import { presentOrder, type OrderRecord } from './record';
import * as repo from './repository';
import type { CustomerOrdersQuery, OrderListQuery } from './queries';
import type { Order, OrderCreate } from './schema';

export async function createOrder(tenant: Tenant, input: OrderCreate): Promise<Order> {
  // Three independent reads at once: the customer (with addresses), the products, the account.
  const [owner, products, pricing] = await Promise.all([readOwner(tenant, input.customer_id), readProducts(tenant, input.items), accountPricing(tenant)]);
  const problems: ErrorDetail[] = [];
  if (!owner) problems.push({ field: 'customer_id', message: `No customer with id ${input.customer_id}` });
  const priced: PricedLines = priceLines(input.items, products, pricing);
  problems.push(...priced.problems);
  const choices = addressChoices(input);
  const shippingAddress = owner ? resolveAddress('shipping', choices.shipping, owner, true, problems) : null;
  const billingAddress = owner ? resolveAddress('billing', choices.billing, owner, true, problems) : null;
  assertValid(problems); // before any number is taken: a refused order leaves no gap

  const now = new Date().toISOString();
  const [id, orderNumber] = await Promise.all([nextId(tenant, 'order'), nextOrderNumber(tenant, now)]);
  const customer = owner!.customer;
  const base: OrderRecord = {
    id,
    order_number: orderNumber,
    status: 'pending',
    customer: { id: customer.id, name: customer.name, email: customer.email },
    items: priced.lines,
    ...orderTotals(priced.lines, input.shipping, pricing.tax_rate),
    tax_rate: pricing.tax_rate,
    shipping: input.shipping,
    currency: pricing.currency,
    shipping_address: shippingAddress ?? null,
    billing_address: billingAddress ?? null,
    notes: input.notes ?? null,
    due_date: input.due_date ?? null,
    created_at: now,
    updated_at: now,
    version: 1,
    reserved: [],
  };
  const order = await repo.insertOrder(tenant, stockLinesOf(base.items), productIdsOf(base.items), (reserved) => {
    const stored = { ...base, reserved };
    return { order: stored, events: [eventPut(tenant, 'order.created', presentOrder(stored)).item] };
  });
  return presentOrder(order);
}

export async function getOrder(tenant: Tenant, id: number): Promise<Order> {
  return presentOrder(await repo.requireOrder(tenant, id));
}

/** The cursor's position: the order named by `starting_after` (422 when the tenant has none). */
async function cursorOf(tenant: Tenant, id: number | undefined): Promise<repo.OrderFilter['before']> {
  if (id === undefined) return undefined;
  const anchor = await repo.readOrder(tenant, id);
  if (!anchor) throw new ValidationError('Unknown cursor', [{ field: 'starting_after', message: `No order with id ${id}` }]);
  return { created_at: anchor.created_at, id: anchor.id };
}

export async function listOrders(tenant: Tenant, query: OrderListQuery): Promise<{ items: Order[]; total: number }> {
  const before = await cursorOf(tenant, query.starting_after);
  const filter = { status: query.status, customerId: query.customer_id, from: query.created_from, to: query.created_to, before };
  const result = await repo.listOrders(tenant, filter, { page: query.page, perPage: query.per_page });
  return { items: result.items.map(presentOrder), total: result.total };
}

/** A customer's orders (404 for an unknown customer); totals from the customer's counters. */
export async function listCustomerOrders(tenant: Tenant, customerId: number, query: CustomerOrdersQuery): Promise<{ items: Order[]; total: number }> {
  const [counts, before] = await Promise.all([repo.customerOrderCounts(tenant, customerId), cursorOf(tenant, query.starting_after)]);
  if (!counts) throw new NotFoundError('customer', customerId);
  const filter = { status: query.status, customerId, from: query.created_from, to: query.created_to, before };
  const result = await repo.listOrders(tenant, filter, { page: query.page, perPage: query.per_page }, counts);
  return { items: result.items.map(presentOrder), total: result.total };
}

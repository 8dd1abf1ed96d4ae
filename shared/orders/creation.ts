/**
 * The one way an order is created — by `POST /v1/orders`, a cart's checkout and a quote's
 * acceptance alike: what it is made of (a priced offer, or a quote's lines as quoted), its id and
 * number taken once, and a pure plan of its record and every part of its transaction (the order,
 * its list entry, counters, its customer's counts — or a new guest customer's put —, the stock it
 * reserves, `order.created`). Each caller appends its own parts as data (a cart's close, a
 * quote's acceptance) to the same transaction; a VersionConflict on stock plans again from a fresh
 * read of the products.
 */
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ValidationError } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { readProducts } from '#shared/products/repository';
import { planStock } from '#shared/products/stock';
import type { ProductRecord } from '#shared/products/stored';
import { orderCreated } from './events';
import { productIdsOf, stockLinesOf } from './lines';
import { nextOrderNumber } from './numbering';
import type { PricedOffer } from './offers';
import * as repo from './repository';
import {
  creationCounters,
  creationCustomerCounts,
  creationCustomerMoves,
  listEntryPut,
  orderPut,
  storedOrder,
  type OrderRecord,
} from './stored';
import type { Part } from './transitions';

/** What an order is made of, decided before its id and number are taken. */
export interface OrderDraft extends PricedOffer {
  due_date: string | null;
  /** The quote it was accepted from. */
  quote_id: number | null;
}

/** An order's id and number, taken once per request (numbers are unique, not gap-free: a refused create leaves a gap). */
export interface OrderNumber {
  id: number;
  order_number: string;
}

export interface OrderPlan {
  order: OrderRecord;
  parts: Part[];
}

/** Attempts of a create whose stock moved under it (each plans again from the products read again). */
export const ORDER_CREATE_ATTEMPTS = 6;

const customerGone = (customerId: number) => () =>
  new ValidationError('The customer cannot take orders', [{ field: 'customer_id', message: `No customer with id ${customerId}` }]);

/** Takes an order's id and number (at `at`, whose year the number has). */
export async function takeOrderNumber(tenant: Tenant, at: Date): Promise<OrderNumber> {
  const [id, order_number] = await Promise.all([nextId(tenant, 'order'), nextOrderNumber(tenant, at.toISOString())]);
  return { id, order_number };
}

/**
 * The plan of an order's creation — pure: its record (pending, the stock it reserves) and every
 * part of its transaction. `newCustomer`: a customer made with the order (a guest checkout's): its
 * put, holding the order's counts, instead of the update of an existing customer's counters.
 */
export function planOrderCreation(
  tenant: Tenant,
  draft: OrderDraft,
  numbered: OrderNumber,
  products: ReadonlyMap<number, ProductRecord>,
  options: { at: Date; newCustomer?: ((counts: Record<string, number>) => Part[]) | undefined },
): OrderPlan {
  const at = options.at.toISOString();
  const base: OrderRecord = {
    ...numbered,
    status: 'pending',
    customer: draft.customer,
    items: draft.items,
    subtotal: draft.subtotal,
    tax_rate: draft.tax_rate,
    tax_rates: draft.tax_rates,
    tax_treatment: draft.tax_treatment,
    tax_treatment_warning: draft.tax_treatment_warning,
    shipping_tax_category: draft.shipping_tax_category,
    shipping_tax_rate: draft.shipping_tax_rate,
    taxes: draft.taxes,
    tax: draft.tax,
    shipping: draft.shipping,
    total: draft.total,
    currency: draft.currency,
    shipping_address: draft.shipping_address,
    billing_address: draft.billing_address,
    notes: draft.notes,
    due_date: draft.due_date,
    created_at: at,
    updated_at: at,
    version: 1,
    quote_id: draft.quote_id,
    reserved: [],
    job_ids: [],
    open_jobs: 0,
    completed_jobs: 0,
    production_started_at: null,
    production_completed_at: null,
  };
  const stock = planStock(tenant, products, stockLinesOf(base.items), {
    orderRefs: new Map(productIdsOf(base.items).map((productId) => [productId, 1])),
  });
  const order: OrderRecord = { ...base, reserved: stock.reserved };
  return {
    order,
    parts: [
      orderPut(tenant, order),
      listEntryPut(tenant, order),
      ...creationCounters(tenant, order),
      // The customer's counters are conditional on the customer: one deleted meanwhile refuses the order.
      ...(options.newCustomer
        ? options.newCustomer(creationCustomerMoves(order))
        : [{ item: creationCustomerCounts(tenant, order), onConditionFailure: customerGone(order.customer.id) }]),
      ...stock.parts,
      eventPut(tenant, orderCreated, { order: storedOrder.view(order) }, options.at).item,
      ...stock.events,
    ],
  };
}

/**
 * Creates a planned order with `more` — the caller's own parts — in one transaction, planning
 * again from a fresh read of the products when its stock moved meanwhile. `products`: those the
 * draft was priced from (the first plan's).
 */
export function createPlannedOrder(
  tenant: Tenant,
  draft: OrderDraft,
  numbered: OrderNumber,
  products: ReadonlyMap<number, ProductRecord>,
  options: { at: Date; newCustomer?: ((counts: Record<string, number>) => Part[]) | undefined; more?: Part[] },
): Promise<OrderRecord> {
  return retryOnVersionConflict(
    'stock',
    async (attempt) => {
      const current = attempt === 1 ? products : await readProducts(tenant, productIdsOf(draft.items));
      const plan = planOrderCreation(tenant, draft, numbered, current, options);
      await repo.insertOrder([...plan.parts, ...(options.more ?? [])]);
      return plan.order;
    },
    ORDER_CREATE_ATTEMPTS,
  );
}

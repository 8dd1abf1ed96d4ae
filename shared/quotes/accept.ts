/**
 * `POST /v1/quotes/{id}/accept`: the quote becomes an order in one transaction — the order with
 * exactly the quoted lines and totals (never priced again), its stock reserved as an order's is
 * (shared/products/stock.ts), `quote_id` on it, `order.created`; the quote `accepted` with its
 * `order_id`, `quote.accepted`. The quote's update is conditional on its version and on being open,
 * so of concurrent accepts one commits and the others read again and get 409: exactly one order.
 * Too little stock is a 409 naming the lines, with nothing written.
 */
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, ValidationError } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { orderCreated } from '#shared/orders/events';
import { productIdsOf, stockLinesOf } from '#shared/orders/lines';
import { nextOrderNumber } from '#shared/orders/numbering';
import { orderCreationParts } from '#shared/orders/repository';
import { storedOrder, type OrderRecord } from '#shared/orders/stored';
import { readProducts } from '#shared/products/repository';
import { planStock } from '#shared/products/stock';
import { quoteAccepted } from './events';
import { present, today, type QuoteView } from './present';
import * as repo from './repository';
import { assertAcceptable, type StoredQuoteStatus } from './status';
import type { QuoteRecord } from './stored';

/** Attempts when stock or the quote moved under the accept (each reads everything again). */
const ACCEPT_ATTEMPTS = 6;

export interface Accepted {
  quote: QuoteView;
  order: ReturnType<typeof storedOrder.view>;
}

/** The order a quote becomes: its lines, totals, addresses and notes as quoted. */
function orderOf(quote: QuoteRecord, id: number, orderNumber: string, at: string): OrderRecord {
  return {
    id,
    order_number: orderNumber,
    status: 'pending',
    customer: quote.customer,
    items: quote.items,
    subtotal: quote.subtotal,
    tax_rate: quote.tax_rate,
    tax: quote.tax,
    shipping: quote.shipping,
    total: quote.total,
    currency: quote.currency,
    shipping_address: quote.shipping_address,
    billing_address: quote.billing_address,
    notes: quote.notes,
    due_date: null,
    created_at: at,
    updated_at: at,
    version: 1,
    quote_id: quote.id,
    reserved: [],
    job_ids: [],
    open_jobs: 0,
    completed_jobs: 0,
    production_started_at: null,
    production_completed_at: null,
  };
}

export async function acceptQuote(tenant: Tenant, id: number, now = new Date()): Promise<Accepted> {
  // The order's id and number are taken once (orders' numbers are unique, not gap-free; a failed accept leaves a gap).
  let taken: { id: number; number: string } | undefined;
  return retryOnVersionConflict(
    'quote',
    async () => {
      const before = await repo.requireQuote(tenant, id, true);
      assertAcceptable(before.quote_number, before.status as StoredQuoteStatus, before.valid_until, today(now));
      const products = await readProducts(tenant, productIdsOf(before.items));
      let stock;
      try {
        stock = planStock(tenant, products, stockLinesOf(before.items), {
          orderRefs: new Map(productIdsOf(before.items).map((productId) => [productId, 1])),
        });
      } catch (error) {
        // A quoted product deleted since: the quote can no longer become an order as it stands.
        if (error instanceof ValidationError)
          throw new ConflictError(`Quote ${before.quote_number} names products that no longer exist`, error.details);
        throw error;
      }
      const at = now.toISOString();
      if (!taken) {
        const [orderId, number] = await Promise.all([nextId(tenant, 'order'), nextOrderNumber(tenant, at)]);
        taken = { id: orderId, number };
      }
      const ids = taken;
      const order: OrderRecord = { ...orderOf(before, ids.id, ids.number, at), reserved: stock.reserved };
      const after: QuoteRecord = {
        ...before,
        status: 'accepted',
        order_id: order.id,
        accepted_at: at,
        updated_at: at,
        version: before.version + 1,
      };
      const quote = present(after, now);
      const orderView = storedOrder.view(order);
      await repo.saveQuote(tenant, before, after, [
        ...orderCreationParts(tenant, order, stock, [eventPut(tenant, orderCreated, { order: orderView }, now).item]),
        eventPut(tenant, quoteAccepted, { quote }, now).item,
      ]);
      return { quote, order: orderView };
    },
    ACCEPT_ATTEMPTS,
  );
}

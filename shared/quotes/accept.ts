/**
 * `POST /v1/quotes/{id}/accept`: the quote becomes an order in one transaction — the order with
 * exactly the quoted lines and totals (never priced again), its stock reserved as an order's is
 * (shared/products/stock.ts), `quote_id` on it, `order.created`; the quote `accepted` with its
 * `order_id`, `quote.accepted`. The quote's update is conditional on its version and on being open,
 * so of concurrent accepts one commits and the others read again and get 409: exactly one order.
 * Too little stock is a 409 naming the lines, with nothing written.
 */
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, ValidationError } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { planOrderCreation, takeOrderNumber, type OrderDraft, type OrderNumber } from '#shared/orders/creation';
import { productIdsOf } from '#shared/orders/lines';
import { storedOrder } from '#shared/orders/stored';
import { readProducts } from '#shared/products/repository';
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

/** The order a quote becomes: its lines, totals, addresses and notes as quoted (never priced again). */
const draftOf = (quote: QuoteRecord): OrderDraft => ({
  customer: quote.customer,
  items: quote.items,
  subtotal: quote.subtotal,
  tax_rate: quote.tax_rate,
  tax_rates: quote.tax_rates,
  tax_treatment: quote.tax_treatment,
  tax_treatment_warning: quote.tax_treatment_warning,
  shipping_tax_category: quote.shipping_tax_category,
  shipping_tax_rate: quote.shipping_tax_rate,
  taxes: quote.taxes,
  tax: quote.tax,
  shipping: quote.shipping,
  total: quote.total,
  currency: quote.currency,
  shipping_address: quote.shipping_address,
  billing_address: quote.billing_address,
  notes: quote.notes,
  due_date: null,
  quote_id: quote.id,
});

export async function acceptQuote(tenant: Tenant, id: number, now = new Date()): Promise<Accepted> {
  // The order's id and number are taken once (orders' numbers are unique, not gap-free; a failed accept leaves a gap).
  let numbered: OrderNumber | undefined;
  return retryOnVersionConflict(
    'quote',
    async () => {
      const before = await repo.requireQuote(tenant, id, true);
      assertAcceptable(before.quote_number, before.status as StoredQuoteStatus, before.valid_until, today(now));
      const products = await readProducts(tenant, productIdsOf(before.items));
      // The orders' one creation, its parts joined by the quote's acceptance in the same transaction.
      // Planned first without a number (pure), so a quote that cannot become an order takes none.
      const plan = (order: OrderNumber) => planOrderCreation(tenant, draftOf(before), order, products, { at: now });
      try {
        plan({ id: 0, order_number: '' });
      } catch (error) {
        // A quoted product deleted since: the quote can no longer become an order as it stands.
        if (error instanceof ValidationError)
          throw new ConflictError(`Quote ${before.quote_number} names products that no longer exist`, error.details);
        throw error;
      }
      numbered ??= await takeOrderNumber(tenant, now);
      const created = plan(numbered);
      const at = now.toISOString();
      const after: QuoteRecord = {
        ...before,
        status: 'accepted',
        order_id: created.order.id,
        accepted_at: at,
        updated_at: at,
        version: before.version + 1,
      };
      const quote = present(after, now);
      await repo.saveQuote(tenant, before, after, [...created.parts, eventPut(tenant, quoteAccepted, { quote }, now).item]);
      return { quote, order: storedOrder.view(created.order) };
    },
    ACCEPT_ATTEMPTS,
  );
}

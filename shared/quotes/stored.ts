/**
 * How quotes are stored (see docs/data-model.md and docs/quotes.md).
 *
 * The quote item's two index slots give "all quotes" (gsi1, newest first) and "of one stored
 * status" (gsi2): the open ones sorted by validity, so that "open" and "expired" are two ranges of
 * one partition, the accepted and rejected ones by creation. A list entry in the quote's
 * partition gives the same two lists per customer. Lines are order lines: an accepted quote's
 * lines become its order's exactly.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, dueSortKey, quoteKeys } from '#shared/db/keys';
import { adjustTotal } from '#shared/db/totals';
import { tableName, type TransactItem } from '#shared/db/table';
import { versionedUpdate } from '#shared/db/update-expression';
import { orderAddress, orderLine, saleTaxFields, withStoredTax } from '#shared/orders/stored';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import { QUOTE_STATUSES, type StoredQuoteStatus } from './status';

export const storedQuote = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    quote_number: field(c.string).fixed().describe('Yearly, per tenant and mode, without gaps', 'QUO-2026-000042'),
    status: field(c.enumOf(QUOTE_STATUSES)).describe('expired: open, and valid_until has passed (computed when read)'),
    customer: field(c.object({ id: field(c.int), name: field(c.string), email: field(c.string) }))
      .fixed()
      .describe('As at quoting time'),
    items: field(c.list(orderLine)).describe('Priced like order lines; they become the order lines unchanged'),
    subtotal: field(c.money),
    ...saleTaxFields(),
    currency: field(c.string).fixed().describe('ISO 4217', 'EUR'),
    shipping_address: field(c.nullable(orderAddress)),
    billing_address: field(c.nullable(orderAddress)),
    notes: field(c.nullable(c.string)),
    valid_until: field(c.string).describe('YYYY-MM-DD, the last day it can be accepted', '2026-12-24'),
    order_id: field(c.nullable(c.int)).describe('The order it was accepted into'),
    rejection_reason: field(c.nullable(c.string)),
    accepted_at: field(c.nullable(c.timestamp)),
    rejected_at: field(c.nullable(c.timestamp)),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().describe('Raised by every change; send it as If-Match'),
  }))();

export type QuoteRecord = RecordOf<typeof storedQuote.shape>;

// A function, not `storedQuote.read`: a property read at the top level keeps the entity in every bundle importing this module.
export const quoteFromItem = (item: Record<string, unknown>): QuoteRecord => withStoredTax(storedQuote.read(item), item);

export const QUOTES = 'quotes';
export const quoteStatusCounter = (status: StoredQuoteStatus): string => `${QUOTES}:${status}`;

/** The sort key of a quote in its status lists: open ones by validity, the others by creation. */
const statusSortKey = (quote: QuoteRecord): string =>
  quote.status === 'open' ? dueSortKey(quote.valid_until, quote.created_at, quote.id) : createdSortKey(quote.created_at, quote.id);

const storedStatus = (quote: QuoteRecord): StoredQuoteStatus => (quote.status === 'expired' ? 'open' : quote.status);

/** The quote item, its customer entry and the counters: a create's items besides the number and the event. */
export function quoteCreation(tenant: Tenant, quote: QuoteRecord): TransactItem[] {
  const created = createdSortKey(quote.created_at, quote.id);
  const status = storedStatus(quote);
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...quoteKeys.quote(tenant, quote.id),
          entity: 'QUOTE',
          ...storedQuote.attributes({ ...quote, status }, 'put'),
          customer_id: quote.customer.id,
          gsi1pk: quoteKeys.collection(tenant),
          gsi1sk: created,
          gsi2pk: quoteKeys.byStatus(tenant, status),
          gsi2sk: statusSortKey(quote),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...quoteKeys.customerEntry(tenant, quote.id),
          entity: 'QUOTE_LIST_ENTRY',
          quote_id: quote.id,
          gsi1pk: quoteKeys.ofCustomer(tenant, quote.customer.id),
          gsi1sk: created,
          gsi2pk: quoteKeys.ofCustomerByStatus(tenant, quote.customer.id, status),
          gsi2sk: statusSortKey(quote),
        },
      },
    },
    adjustTotal(tenant, QUOTES, 1),
    adjustTotal(tenant, quoteStatusCounter(status), 1),
  ];
}

/**
 * The update of the quote from `before` to `after`, conditional on the version read (and on being
 * open still: `status` is stored `open` until accepted or rejected). Its status lists move with a
 * status change or a new validity; the counters with a status change.
 */
export function quoteUpdate(tenant: Tenant, before: QuoteRecord, after: QuoteRecord): TransactItem[] {
  const from = storedStatus(before);
  const to = storedStatus(after);
  const sortKey = statusSortKey({ ...after, status: to });
  const items: TransactItem[] = [
    versionedUpdate(
      quoteKeys.quote(tenant, before.id),
      { ...storedQuote.attributes({ ...after, status: to }, 'update'), gsi2pk: quoteKeys.byStatus(tenant, to), gsi2sk: sortKey },
      before.version,
      { condition: '#status = :open', names: { '#status': 'status' }, values: { ':open': 'open' } },
    ),
  ];
  if (from !== to || sortKey !== statusSortKey({ ...before, status: from })) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: quoteKeys.customerEntry(tenant, before.id),
        UpdateExpression: 'SET gsi2pk = :partition, gsi2sk = :sort',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':partition': quoteKeys.ofCustomerByStatus(tenant, before.customer.id, to), ':sort': sortKey },
      },
    });
  }
  if (from !== to) items.push(adjustTotal(tenant, quoteStatusCounter(from), -1), adjustTotal(tenant, quoteStatusCounter(to), 1));
  return items;
}

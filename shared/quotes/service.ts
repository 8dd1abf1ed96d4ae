/**
 * Quotes: make, read, list, change, reject (accepting: accept.ts). Lines are priced by the orders'
 * own line pricing (shared/orders/lines.ts) — one pricing path — and the totals computed the same
 * way, so an accepted quote becomes an order with exactly its figures. Each write is one
 * transaction; a change conditional on the version read (and on the quote still being open).
 */
import { DEFAULT_QUOTE_VALIDITY_DAYS } from '#shared/accounts/company';
import type { Tenant } from '#shared/auth/principal';
import { checkLineFiles, withFileCopies } from '#shared/files/line-files';
import { priceLegacyLines } from '#shared/legacy-products/line-prices';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ValidationError, type ErrorDetail } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { eventPut } from '#shared/events/outbox';
import { offerOrThrow, readOffer } from '#shared/orders/offers';
import { inputProductIds, legacyCellsOf, orderTotals, priceLines, pricingOf, shippingTaxOf } from '#shared/orders/lines';
import { assertIfMatch, type IfMatch } from '#shared/orders/preconditions';
import type { OrderLineInput } from '#shared/orders/schema';
import { readProducts } from '#shared/products/repository';
import { quoteCreated, quoteRejected } from './events';
import { formatQuoteNumber, withQuoteNumber } from './numbering';
import { present, today, type QuoteView } from './present';
import * as repo from './repository';
import type { CustomerQuotesQuery, QuoteCreate, QuoteListQuery, QuoteUpdate } from './schema';
import { assertEditable, assertRejectable, type StoredQuoteStatus } from './status';
import { quoteCreation, type QuoteRecord } from './stored';

const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function assertValid(problems: ErrorDetail[]): void {
  if (problems.length) throw new ValidationError('The quote is invalid', problems);
}

const productsOf = (tenant: Tenant, lines: readonly OrderLineInput[]) => readProducts(tenant, inputProductIds(lines));

function assertValidity(validUntil: string, now: Date): void {
  if (validUntil < today(now)) {
    throw new ValidationError('The quote would be expired already', [{ field: 'valid_until', message: 'must be today or later' }]);
  }
}

// ---- Create -----------------------------------------------------------------------------------

/** `POST /v1/quotes`: priced lines, totals, address copies, the next gap-free number and `quote.created`, in one transaction. */
export async function createQuote(tenant: Tenant, input: QuoteCreate, now = new Date()): Promise<QuoteView> {
  // Before a number is read: a refused quote takes none.
  const read = await readOffer(tenant, input);
  const validUntil = input.valid_until ?? addDays(today(now), read.account?.company?.quote_validity_days ?? DEFAULT_QUOTE_VALIDITY_DAYS);
  if (validUntil < today(now)) read.problems.push({ field: 'valid_until', message: 'must be today or later' });
  const offer = offerOrThrow(read, 'quote');
  const at = now.toISOString();
  const id = await nextId(tenant, 'quote');
  const base: Omit<QuoteRecord, 'quote_number'> = {
    id,
    status: 'open',
    ...offer,
    valid_until: validUntil,
    order_id: null,
    rejection_reason: null,
    accepted_at: null,
    rejected_at: null,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  const year = now.getUTCFullYear();
  return withQuoteNumber(
    tenant,
    year,
    (sequence) => {
      const quote: QuoteRecord = { ...base, quote_number: formatQuoteNumber(year, sequence) };
      const view = present(quote, now);
      return { result: view, parts: [...quoteCreation(tenant, quote), eventPut(tenant, quoteCreated, { quote: view }, now).item] };
    },
    now,
  );
}

// ---- Read and list ----------------------------------------------------------------------------

export async function getQuote(tenant: Tenant, id: number): Promise<QuoteView> {
  return present(await repo.requireQuote(tenant, id));
}

export interface QuotePage {
  items: QuoteView[];
  total: number;
  capped: boolean;
  hasMore: boolean;
}

/** The repository filter of a status the API shows: `expired` and `open` are the stored `open` split by validity. */
function statusFilter(status: QuoteListQuery['status'], now: Date): Pick<repo.QuoteFilter, 'status' | 'validFrom' | 'validBefore'> {
  if (status === 'open') return { status: 'open', validFrom: today(now) };
  if (status === 'expired') return { status: 'open', validBefore: today(now) };
  return { status: status as StoredQuoteStatus | undefined };
}

/** The cursor's quote: the one `starting_after` names (422 when the tenant has none). */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<QuoteRecord | undefined> {
  return cursorEntry(id, 'quote', (id) => repo.readQuote(tenant, id));
}

async function list(
  tenant: Tenant,
  query: CustomerQuotesQuery,
  customerId: number | undefined,
  after: QuoteRecord | undefined,
): Promise<QuotePage> {
  const now = new Date();
  const byValidity = query.status === 'open' || query.status === 'expired';
  if (byValidity && (query.created_from !== undefined || query.created_to !== undefined)) {
    throw new ValidationError('open and expired quotes are listed by validity, not by creation', [
      {
        field: query.created_from !== undefined ? 'created_from' : 'created_to',
        message: `cannot be combined with status=${query.status}`,
      },
    ]);
  }
  const result = await repo.listQuotes(
    tenant,
    { ...statusFilter(query.status, now), customerId, from: query.created_from, to: query.created_to },
    { page: query.page, perPage: query.per_page, after },
  );
  return { ...result, items: result.items.map((quote) => present(quote, now)) };
}

/** `GET /v1/quotes`. */
export async function listQuotes(tenant: Tenant, query: QuoteListQuery): Promise<QuotePage> {
  return list(tenant, query, query.customer_id, await cursorOf(tenant, query.starting_after));
}

/** `GET /v1/customers/{id}/quotes` (404 for an unknown customer). */
export async function listCustomerQuotes(tenant: Tenant, customerId: number, query: CustomerQuotesQuery): Promise<QuotePage> {
  return list(tenant, query, customerId, await repo.requireCustomerAndCursorQuote(tenant, customerId, query.starting_after));
}

// ---- Change and reject ------------------------------------------------------------------------

/** `PUT /v1/quotes/{id}`: lines (priced again), shipping, validity, notes — only while open; If-Match like orders. */
export async function updateQuote(
  tenant: Tenant,
  id: number,
  changes: QuoteUpdate,
  ifMatch: IfMatch,
  now = new Date(),
): Promise<QuoteView> {
  if (changes.valid_until !== undefined) assertValidity(changes.valid_until, now);
  const [products, files, legacy] = changes.items
    ? await Promise.all([
        productsOf(tenant, changes.items),
        checkLineFiles(tenant, changes.items),
        priceLegacyLines(tenant, legacyCellsOf(changes.items)),
      ])
    : [undefined, undefined, undefined];
  return retryOnVersionConflict('quote', async () => {
    const before = await repo.requireQuote(tenant, id, true);
    assertEditable(before.quote_number, before.status as StoredQuoteStatus);
    assertIfMatch(ifMatch, before.version, 'quote');
    let items = before.items;
    if (changes.items && products && files) {
      // Priced with the quote's own currency and tax rate, fixed when it was made.
      const priced = priceLines(changes.items, products, pricingOf(before), 'items', legacy);
      assertValid([...priced.problems, ...files.problems]);
      items = withFileCopies(priced.lines, files.copies);
    }
    const shipping = changes.shipping ?? before.shipping;
    const after: QuoteRecord = {
      ...before,
      items,
      shipping,
      ...orderTotals(items, shippingTaxOf(before, shipping)),
      valid_until: changes.valid_until ?? before.valid_until,
      notes: changes.notes === undefined ? before.notes : changes.notes,
      updated_at: now.toISOString(),
      version: before.version + 1,
    };
    await repo.saveQuote(tenant, before, after);
    return present(after, now);
  });
}

/** `POST /v1/quotes/{id}/reject`: an open quote (expired or not), with an optional reason; `quote.rejected`. */
export async function rejectQuote(tenant: Tenant, id: number, reason: string | null | undefined, now = new Date()): Promise<QuoteView> {
  return retryOnVersionConflict('quote', async () => {
    const before = await repo.requireQuote(tenant, id, true);
    assertRejectable(before.quote_number, before.status as StoredQuoteStatus);
    const at = now.toISOString();
    const after: QuoteRecord = {
      ...before,
      status: 'rejected',
      rejection_reason: reason ?? null,
      rejected_at: at,
      updated_at: at,
      version: before.version + 1,
    };
    const view = present(after, now);
    await repo.saveQuote(tenant, before, after, [eventPut(tenant, quoteRejected, { quote: view }, now).item]);
    return view;
  });
}

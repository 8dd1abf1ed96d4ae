/**
 * A quote's life: `open` when made (its lines, validity and notes may change), then `accepted`
 * (into an order, once) or `rejected`. `expired` is not stored: it is what an open quote shows once
 * its `valid_until` day has passed, computed when read and enforced when accepting — so nothing has
 * to run at midnight.
 */
import { ConflictError } from '#shared/errors';

/** What is stored. */
export const STORED_QUOTE_STATUSES = ['open', 'accepted', 'rejected'] as const;
export type StoredQuoteStatus = (typeof STORED_QUOTE_STATUSES)[number];

/** What the API shows (and filters by). */
export const QUOTE_STATUSES = ['open', 'accepted', 'rejected', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/** An open quote is valid through its `valid_until` day (UTC). */
export const shownStatus = (status: StoredQuoteStatus, validUntil: string, today: string): QuoteStatus =>
  status === 'open' && validUntil < today ? 'expired' : status;

/** Lines, validity and notes change only while the quote is open (an expired one too: a new validity revives it). */
export function assertEditable(quoteNumber: string, status: StoredQuoteStatus): void {
  if (status !== 'open') throw new ConflictError(`Quote ${quoteNumber} is ${status}: only open quotes can be changed`);
}

/** Accepting: only an open quote within its validity. */
export function assertAcceptable(
  quoteNumber: string,
  status: StoredQuoteStatus,
  validUntil: string,
  today: string,
  orderNumber?: string,
): void {
  if (status === 'accepted')
    throw new ConflictError(`Quote ${quoteNumber} is already accepted${orderNumber ? ` (order ${orderNumber})` : ''}`);
  if (status === 'rejected') throw new ConflictError(`Quote ${quoteNumber} is rejected: it cannot be accepted`);
  if (validUntil < today) throw new ConflictError(`Quote ${quoteNumber} expired after ${validUntil}: extend valid_until to accept it`);
}

/** Rejecting: an open quote, expired or not. */
export function assertRejectable(quoteNumber: string, status: StoredQuoteStatus): void {
  if (status !== 'open') throw new ConflictError(`Quote ${quoteNumber} is already ${status}`);
}

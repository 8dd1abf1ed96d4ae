/** The quote as the API shows it: its view, with `expired` computed for the moment of reading. */
import { shownStatus, type StoredQuoteStatus } from './status';
import { storedQuote, type QuoteRecord } from './stored';

export type QuoteView = ReturnType<typeof storedQuote.view>;

export const today = (now: Date): string => now.toISOString().slice(0, 10);

export const present = (quote: QuoteRecord, now = new Date()): QuoteView =>
  storedQuote.view({ ...quote, status: shownStatus(quote.status as StoredQuoteStatus, quote.valid_until, today(now)) });

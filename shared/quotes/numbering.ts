/**
 * Quote numbers, `QUO-<year>-<n>` (n zero-padded to 6 digits), per tenant (account and mode) and
 * year, without gaps: taken only by the transaction that writes the quote (the gap-free counter of
 * shared/db/counters.ts; service.ts retries a create that lost the race).
 */
import type { Tenant } from '#shared/auth/principal';
import { lastGapFree, takeGapFree } from '#shared/db/counters';
import { quoteKeys } from '#shared/db/keys';
import type { TransactionPart } from '#shared/db/table';

export const formatQuoteNumber = (year: number, sequence: number): string => `QUO-${year}-${String(sequence).padStart(6, '0')}`;

export const lastQuoteSequence = (tenant: Tenant, year: number): Promise<number> => lastGapFree(quoteKeys.numberSequence(tenant, year));

export const takeQuoteNumber = (tenant: Tenant, year: number, last: number): TransactionPart =>
  takeGapFree(quoteKeys.numberSequence(tenant, year), last, 'quote number');

/**
 * Quote numbers, `QUO-<year>-<n>` (n zero-padded to 6 digits), per tenant (account and mode) and
 * year, without gaps: taken only by the transaction that writes the quote, the creates of a tenant
 * committing one at a time in the order they came (shared/db/gap-free.ts, as invoice numbers).
 */
import type { Tenant } from '#shared/auth/principal';
import { commitInTurn, type NumberedWrite } from '#shared/db/gap-free';
import { quoteKeys } from '#shared/db/keys';

export const formatQuoteNumber = (year: number, sequence: number): string => `QUO-${year}-${String(sequence).padStart(6, '0')}`;

/**
 * Writes a quote with the year's next number: `write(number)` answers the quote's parts and what to
 * answer (503 with Retry-After when too many creates of the tenant queue at once, counted from `startedAt`).
 */
export const withQuoteNumber = <T>(
  tenant: Tenant,
  year: number,
  write: (sequence: number) => NumberedWrite<T> | Promise<NumberedWrite<T>>,
  startedAt?: Date,
): Promise<T> => commitInTurn(quoteKeys.numberSequence(tenant, year), 'quote number', write, { startedAt });

/**
 * Credit note numbers, `CN-<year>-<n>` (n zero-padded to 6 digits), without gaps, one sequence per
 * tenant (account and mode) and year — the invoice numbering's pattern (shared/invoices/numbering.ts):
 * a number is taken only by the transaction that writes its credit note (the gap-free counter of
 * shared/db/counters.ts), and service.ts retries a create that lost the race. Everything the
 * credit notes know of numbering is in this module.
 */
import type { Tenant } from '#shared/auth/principal';
import { lastGapFree, takeGapFree } from '#shared/db/counters';
import { creditNoteKeys } from '#shared/db/keys';
import type { TransactionPart } from '#shared/db/table';

export const formatCreditNoteNumber = (year: number, sequence: number): string => `CN-${year}-${String(sequence).padStart(6, '0')}`;

/** The last number handed out in `year` (0 before the first). */
export const lastCreditNoteSequence = (tenant: Tenant, year: number): Promise<number> =>
  lastGapFree(creditNoteKeys.numberSequence(tenant, year));

/** Moves the year's counter from `last` to `last + 1`, only while it still holds `last`. */
export const takeCreditNoteNumber = (tenant: Tenant, year: number, last: number): TransactionPart =>
  takeGapFree(creditNoteKeys.numberSequence(tenant, year), last, 'credit note number');

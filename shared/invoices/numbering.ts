/**
 * Invoice numbers, `INV-<year>-<n>` (n zero-padded to 6 digits), without gaps: tax law wants an
 * unbroken sequence, so a number is taken only by the transaction that writes its invoice (the
 * gap-free counter of shared/db/counters.ts; service.ts retries a create that lost the race, with
 * a jittered pause). One counter per tenant (account and mode) and year.
 */
import type { Tenant } from '#shared/auth/principal';
import { lastGapFree, takeGapFree } from '#shared/db/counters';
import { invoiceKeys } from '#shared/db/keys';
import type { TransactionPart } from '#shared/db/table';

export const formatInvoiceNumber = (year: number, sequence: number): string => `INV-${year}-${String(sequence).padStart(6, '0')}`;

/** The last number handed out in `year` (0 before the first). */
export const lastInvoiceSequence = (tenant: Tenant, year: number): Promise<number> => lastGapFree(invoiceKeys.numberSequence(tenant, year));

/** Moves the year's counter from `last` to `last + 1`, only while it still holds `last`. */
export const takeInvoiceNumber = (tenant: Tenant, year: number, last: number): TransactionPart =>
  takeGapFree(invoiceKeys.numberSequence(tenant, year), last, 'invoice number');

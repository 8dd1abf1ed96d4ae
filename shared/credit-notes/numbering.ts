/**
 * Credit note numbers, `CN-<year>-<n>` (n zero-padded to 6 digits), without gaps, one sequence per
 * tenant (account and mode) and year — taken as invoice numbers are (shared/invoices/numbering.ts):
 * only by the transaction that writes the credit note, the creates of a tenant committing one at a
 * time in the order they came (shared/db/gap-free.ts). Everything credit notes know of numbering
 * is in this module.
 */
import type { Tenant } from '#shared/auth/principal';
import { commitInTurn, type NumberedWrite } from '#shared/db/gap-free';
import { creditNoteKeys } from '#shared/db/keys';

export const formatCreditNoteNumber = (year: number, sequence: number): string => `CN-${year}-${String(sequence).padStart(6, '0')}`;

/**
 * Writes a credit note with the year's next number: `write(number)` runs in the create's turn and
 * answers the credit note's parts and what to answer. Throws what `write` or its parts' conditions
 * throw (no number taken), or 503 with Retry-After when too many creates of the tenant queue at once.
 */
export const withCreditNoteNumber = <T>(
  tenant: Tenant,
  year: number,
  write: (sequence: number) => NumberedWrite<T> | Promise<NumberedWrite<T>>,
  startedAt?: Date,
): Promise<T> => commitInTurn(creditNoteKeys.numberSequence(tenant, year), 'credit note number', write, { startedAt });

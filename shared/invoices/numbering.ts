/**
 * Invoice numbers, `INV-<year>-<n>` (n zero-padded to 6 digits), without gaps: tax law wants an
 * unbroken sequence, so a number is taken only by the transaction that writes its invoice, the
 * creates of a tenant committing one at a time in the order they came (shared/db/gap-free.ts).
 * One counter per tenant (account and mode) and year.
 */
import type { Tenant } from '#shared/auth/principal';
import { commitInTurn, type NumberedWrite } from '#shared/db/gap-free';
import { invoiceKeys } from '#shared/db/keys';

export const formatInvoiceNumber = (year: number, sequence: number): string => `INV-${year}-${String(sequence).padStart(6, '0')}`;

/**
 * Writes an invoice with the year's next number: `write(number)` answers the invoice's parts (with
 * the number formatted into them) and what to answer. Throws what its parts' conditions mean (the
 * number is not taken), or 503 with Retry-After when too many creates of the tenant queue at once
 * (their wait counted from `startedAt`, when the create began).
 */
export const withInvoiceNumber = <T>(
  tenant: Tenant,
  year: number,
  write: (sequence: number) => NumberedWrite<T> | Promise<NumberedWrite<T>>,
  startedAt?: Date,
): Promise<T> => commitInTurn(invoiceKeys.numberSequence(tenant, year), 'invoice number', write, { startedAt });

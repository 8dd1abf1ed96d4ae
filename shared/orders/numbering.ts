/**
 * Human order numbers, `ORD-<year>-<n>` with n zero-padded to 6 digits (it simply grows past
 * 999999). One counter item per tenant and year, separate from the integer id sequence; each
 * create takes its number with one atomic `ADD`, so concurrent creates never share a number. A
 * create that fails afterwards leaves a gap, never a duplicate (numbers are unique, not gapless).
 */
import type { Tenant } from '#shared/auth/principal';
import { incrementCounter } from '#shared/db/counters';
import { tenantKeys } from '#shared/db/keys';

export const formatOrderNumber = (year: number, sequence: number): string => `ORD-${year}-${String(sequence).padStart(6, '0')}`;

/** The next number of the year of `createdAt` (UTC), the order's own creation time. */
export async function nextOrderNumber(tenant: Tenant, createdAt: string): Promise<string> {
  const year = Number(createdAt.slice(0, 4));
  return formatOrderNumber(year, await incrementCounter(tenantKeys.orderNumberSequence(tenant, year)));
}

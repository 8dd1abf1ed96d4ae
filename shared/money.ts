/**
 * Money: JSON numbers with at most 2 decimals at the API edge, integer minor units (hundredths)
 * everywhere else. All currencies are treated as having two decimals (EUR, USD, CHF, GBP…).
 * Rounding is half-up (half away from zero for the non-negative amounts this API computes).
 */

/** Largest amount accepted at the edge; keeps every derived figure far inside Number.MAX_SAFE_INTEGER. */
export const MAX_AMOUNT = 1_000_000;

/**
 * Largest sum of lines a document (an order, an invoice) may hold, in minor units: 1,000,000,000.00
 * — far inside exact integer arithmetic (its tax too), far beyond any print job. The edge bounds
 * each amount and quantity, not their products and sums: those are checked against this.
 */
export const MAX_TOTAL_MINOR = 100_000_000_000;

/**
 * True when `value` has at most `places` decimals. `k / 10^places` is the double nearest to
 * the decimal literal the client sent, so a round trip is exact exactly when it had ≤ places.
 */
export function hasAtMostDecimals(value: number, places: number): boolean {
  if (!Number.isFinite(value)) return false;
  const scale = 10 ** places;
  return Math.round(value * scale) / scale === value;
}

/** 12.34 → 1234. Callers validate decimals first (`hasAtMostDecimals(value, 2)`). */
export function toMinor(amount: number): number {
  if (!hasAtMostDecimals(amount, 2)) throw new RangeError(`${amount} has more than 2 decimals`);
  return Math.round(amount * 100);
}

/** 1234 → 12.34 (the double nearest to the decimal, so JSON prints it exactly). */
export function fromMinor(minor: number): number {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not an integer amount of minor units`);
  return minor / 100;
}

/** Integer division rounding half-up; `numerator` ≥ 0, `denominator` > 0. */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError('divideHalfUp expects numerator ≥ 0 and denominator > 0');
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** 1234 → "12.34", -5 → "-0.05": exact decimal text of minor units, for labels. */
export function formatMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

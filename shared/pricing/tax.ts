import { divideHalfUp } from '#shared/money';

/** Tax rates are percentages with at most 2 decimals (19, 7.7, 8.25): kept as hundredths of a percent. */
const RATE_SCALE = 100n * 100n;

/** Tax on a non-negative amount in minor units, rounded half-up once on the whole amount. */
export function taxOn(amountMinor: number, ratePercent: number): number {
  const rate = BigInt(Math.round(ratePercent * 100));
  return Number(divideHalfUp(BigInt(amountMinor) * rate, RATE_SCALE));
}

import * as z from 'zod';
import { MAX_AMOUNT, hasAtMostDecimals, toMinor } from '#shared/money';

/**
 * A money amount in a request: a JSON number with at most 2 decimals, turned into integer minor
 * units for the domain (12.34 → 1234). More decimals are a 422, never silently rounded.
 */
export const moneyInput = (options: { allowNegative?: boolean } = {}) =>
  z
    .number()
    .min(options.allowNegative ? -MAX_AMOUNT : 0, options.allowNegative ? `must be at least -${MAX_AMOUNT}` : 'must not be negative')
    .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
    .refine((value) => hasAtMostDecimals(value, 2), 'must have at most 2 decimals')
    .transform(toMinor)
    .meta({ description: 'Amount in the account currency, at most 2 decimals', example: 12.5 });

/** A money amount in a response (converted from minor units by the presenter). */
export const moneyOutput = /* @__PURE__ */ (() =>
  z.number().meta({ description: 'Amount in the account currency (2 decimals)', example: 12.5 }))();

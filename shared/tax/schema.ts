/**
 * The tax fields of requests and answers (zod): a declared category with its exemption reason on
 * products, legacy products and manual lines; the account's rates; the breakdown every priced
 * answer shows.
 */
import * as z from 'zod';
import { lineText } from '#shared/schemas/common';
import { codecSchema } from '#shared/schemas/response';
import { APPLIED_TAX_CATEGORIES, TAX_CATEGORIES } from './categories';
import { taxBreakdownEntryCodec } from './fields';

export const MAX_EXEMPTION_REASON = 120;

export const taxCategoryInput = /* @__PURE__ */ z.enum(TAX_CATEGORIES).meta({
  description: 'standard, reduced (7 % in Germany: books, brochures), zero or exempt (then tax_exemption_reason)',
  example: 'standard',
});

export const taxExemptionReasonInput = /* @__PURE__ */ (() =>
  lineText(MAX_EXEMPTION_REASON).min(1, 'must not be empty').nullable().optional().meta({
    description: 'Why the supply is exempt (printed, and the e-invoice BT-120); required with tax_category exempt',
    example: 'Exempt under §4 Nr. 14 UStG',
  }))();

/** Percent with at most 2 decimals, 0 to 100. */
export const taxRateInput = /* @__PURE__ */ z
  .number()
  .min(0, 'must not be negative')
  .max(100, 'must be at most 100')
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'must have at most 2 decimals')
  .meta({ description: 'Percent', example: 19 });

export const appliedTaxCategoryOutput = /* @__PURE__ */ z.enum(APPLIED_TAX_CATEGORIES).meta({
  description: "The line's category as charged: its own, or reverse_charge / export under the sale's tax treatment",
  example: 'standard',
});

/** The breakdown an answer shows: one entry per applied category and rate, shipping included. */
export const TaxesSchema = /* @__PURE__ */ (() =>
  z
    .array(codecSchema(taxBreakdownEntryCodec))
    .meta({ description: 'One entry per category and rate, highest rate first; tax = Σ tax_amount' }))();

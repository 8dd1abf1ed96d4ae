/**
 * The tax fields of stored entities (products, lines, orders, quotes, invoices, account settings),
 * listed once: categories, applied categories, rates, the breakdown and the VIES check an invoice
 * copies.
 */
import { codecs as c, field, type Codec } from '#shared/schemas/fields';
import { APPLIED_TAX_CATEGORIES, TAX_CATEGORIES, type TaxRates } from './categories';
import { TAX_TREATMENTS } from './treatment';
import type { ViesCheck } from './vies';

/** A declared category; items stored before categories existed are `standard`. */
export const taxCategoryCodec = /* @__PURE__ */ (() => c.withDefault(c.enumOf(TAX_CATEGORIES), 'standard'))();

/** An applied category (a line's once the treatment is applied); `standard` for items stored before. */
export const appliedTaxCategoryCodec = /* @__PURE__ */ (() => c.withDefault(c.enumOf(APPLIED_TAX_CATEGORIES), 'standard'))();

export const taxTreatmentCodec = /* @__PURE__ */ (() => c.withDefault(c.enumOf(TAX_TREATMENTS), 'domestic'))();

/** One entry of a breakdown: its category and rate, the net amount taxed at it and its tax (rounded once). */
export const taxBreakdownEntryCodec = /* @__PURE__ */ (() =>
  c.object(
    {
      category: field(c.enumOf(APPLIED_TAX_CATEGORIES)),
      rate: field(c.number).describe('Percent', 19),
      taxable_amount: field(c.money).describe('Net amount of the lines (and shipping) of this category and rate'),
      tax_amount: field(c.money).describe('Rounded once per group'),
    },
    { id: 'TaxBreakdownEntry' },
  ))();

export const taxesCodec = /* @__PURE__ */ (() => c.list(taxBreakdownEntryCodec))();

/** The account's rate per category, in percent. */
export const taxRatesCodec: Codec<TaxRates> = /* @__PURE__ */ (() =>
  c.object(
    {
      standard: field(c.number),
      reduced: field(c.number),
      zero: field(c.number),
      exempt: field(c.number),
    },
    { id: 'TaxRates' },
  ))() as never;

/** A VIES answer as an invoice copies it from the customer's profile (ViesCheck, its optional fields null when absent). */
export const vatValidationCodec = /* @__PURE__ */ (() =>
  c.object(
    {
      status: field(c.enumOf(['valid', 'invalid', 'unavailable'])),
      country: field(c.string).describe('The VAT ID prefix', 'AT'),
      number: field(c.string).describe('The whole VAT ID, prefix included', 'ATU10000005'),
      name: field(c.nullable(c.string)).describe("The trader's name as the member state has it (where disclosed)"),
      address: field(c.nullable(c.string)),
      checked_at: field(c.timestamp),
      consultation_number: field(c.nullable(c.string)).describe("VIES's request identifier: the proof of the check"),
      unavailable_reason: field(c.nullable(c.string)),
    },
    { id: 'VatValidation', description: "The VIES check of the customer's VAT ID the tax treatment relied on" },
  ))();

export type VatValidationRecord = ReturnType<typeof vatValidationCodec.decode>;

export const vatValidationOf = (check: ViesCheck): VatValidationRecord => ({
  status: check.status,
  country: check.country,
  number: check.number,
  name: check.name ?? null,
  address: check.address ?? null,
  checked_at: check.checked_at,
  consultation_number: check.consultation_number ?? null,
  unavailable_reason: check.unavailable_reason ?? null,
});

/**
 * A sale's tax, as every priced answer makes it (products, legacy products, carts, quotes, orders,
 * invoices): the treatment derived from the seller's country, the billing country and the
 * customer's tax profile; each line's applied category and rate under it; and the breakdown per
 * category and rate, its tax rounded once per group (categories.ts). Pure.
 */
import {
  applyTaxTreatment,
  taxBreakdown,
  totalTax,
  type AppliedTax,
  type AppliedTaxCategory,
  type TaxBreakdownEntry,
  type TaxCategory,
  type TaxRates,
} from './categories';
import type { CustomerTaxProfile } from './profile';
import { deriveTaxTreatment, type TaxTreatment, type TaxTreatmentDecision } from './treatment';

/** What an account says about tax: its rate per category and the category its shipping is declared as. */
export interface SaleTaxSettings {
  rates: TaxRates;
  shipping_tax_category: TaxCategory;
}

export const SELLER_COUNTRY_UNKNOWN =
  "The account's company has no address, so the seller's country is unknown: domestic VAT is charged (set company.address with PUT /v1/account)";

/**
 * The treatment of a sale. `sellerCountry` is the account company's (null while it has no
 * address: domestic, with a warning when the sale names a billing country); `billingCountry` the
 * sale's billing address's (null: domestic); the profile gives the VAT ID's last check and the
 * shop's override.
 */
export function saleTreatment(input: {
  sellerCountry: string | null;
  billingCountry: string | null;
  profile: CustomerTaxProfile;
}): TaxTreatmentDecision {
  const { profile } = input;
  if (input.sellerCountry === null && profile.tax_treatment_override === null) {
    return { treatment: 'domestic', source: 'derived', warning: input.billingCountry === null ? null : SELLER_COUNTRY_UNKNOWN };
  }
  return deriveTaxTreatment({
    sellerCountry: input.sellerCountry ?? '',
    billingCountry: input.billingCountry,
    // A VAT ID stored without a VIES answer (set before VAT IDs were checked) counts as unavailable, as the customer shows it.
    vat: profile.vat_validation
      ? { status: profile.vat_validation.status, country: profile.vat_validation.country }
      : profile.vat_id
        ? { status: 'unavailable', country: profile.vat_id.slice(0, 2) }
        : null,
    override: profile.tax_treatment_override,
  });
}

/** The domestic treatment: what a price without a customer (a catalogue calculation) is made with. */
export const DOMESTIC: TaxTreatmentDecision = { treatment: 'domestic', source: 'derived', warning: null };

/** The applied tax of a line of `category` in a sale under `treatment`. */
export const lineTax = (category: TaxCategory, treatment: TaxTreatment, rates: TaxRates): AppliedTax =>
  applyTaxTreatment(category, treatment, rates);

export interface SaleTaxLine {
  tax_category: AppliedTaxCategory;
  tax_rate: number;
  /** Net, minor units. */
  amount: number;
}

export interface SaleTaxes {
  taxes: TaxBreakdownEntry[];
  tax: number;
}

/**
 * The breakdown of a sale's lines and its shipping (a line of its own, left out when there is
 * none), and the total tax: the sum of the breakdown.
 */
export function saleTaxes(lines: readonly SaleTaxLine[], shipping?: SaleTaxLine): SaleTaxes {
  const all = [...lines, ...(shipping && shipping.amount > 0 ? [shipping] : [])];
  const taxes = taxBreakdown(all.map((line) => ({ category: line.tax_category, rate: line.tax_rate, amount: line.amount })));
  return { taxes, tax: totalTax(taxes) };
}

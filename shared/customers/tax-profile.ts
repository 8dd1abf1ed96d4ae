/**
 * The customer's tax profile as pricing reads it (shared/tax/profile.ts), and the tax treatment a
 * customer presents: both from the stored VAT ID, its VIES answer and the shop's override.
 */
import { NO_TAX_PROFILE, type CustomerTaxProfile } from '#shared/tax/profile';
import { deriveTaxTreatment, type TaxTreatmentDecision } from '#shared/tax/treatment';
import type { ViesCheck } from '#shared/tax/vies';
import type { VatCountryCode } from '#shared/tax/vat-id';
import type { CustomerRecord } from './stored';

type StoredValidation = NonNullable<CustomerRecord['vat_validation']>;

/** The stored validation as the VIES client answered it (its optional fields left out when null). */
export function viesCheckOf(stored: StoredValidation): ViesCheck {
  const { name, address, consultation_number, unavailable_reason, country, ...rest } = stored;
  return {
    ...rest,
    country: country as VatCountryCode,
    ...(name === null ? {} : { name }),
    ...(address === null ? {} : { address }),
    ...(consultation_number === null ? {} : { consultation_number }),
    ...(unavailable_reason === null ? {} : { unavailable_reason }),
  };
}

/** A VIES answer as the customer stores it. */
export const storedValidationOf = (check: ViesCheck): StoredValidation => ({
  status: check.status,
  country: check.country,
  number: check.number,
  name: check.name ?? null,
  address: check.address ?? null,
  checked_at: check.checked_at,
  consultation_number: check.consultation_number ?? null,
  unavailable_reason: check.unavailable_reason ?? null,
});

export function customerTaxProfile(customer: CustomerRecord | null | undefined): CustomerTaxProfile {
  if (!customer) return NO_TAX_PROFILE;
  return {
    vat_id: customer.vat_id,
    vat_validation: customer.vat_validation ? viesCheckOf(customer.vat_validation) : null,
    tax_treatment_override: customer.tax_treatment_override,
  };
}

/** What the treatment depends on beyond the customer: the seller's country and the customer's default billing country. */
export interface TreatmentContext {
  /** The account company's country; null when the company has no address. */
  sellerCountry: string | null;
  /** The country of the customer's default billing address; null when it has none. */
  billingCountry: string | null;
}

const NO_SELLER_COUNTRY =
  "The account company has no address (PUT /v1/account), so the seller's country is unknown: domestic VAT is assumed";

/**
 * The customer's tax treatment (deriveTaxTreatment). A VAT ID stored without a VIES answer (set
 * before VAT IDs were checked) counts as unavailable: domestic, with a warning, until it is checked.
 */
export function customerTaxTreatment(customer: CustomerRecord, context: TreatmentContext): TaxTreatmentDecision {
  const override = customer.tax_treatment_override;
  const { sellerCountry, billingCountry } = context;
  if (!override && sellerCountry === null && billingCountry !== null) {
    return { treatment: 'domestic', source: 'derived', warning: NO_SELLER_COUNTRY };
  }
  const validation = customer.vat_validation;
  const vat = validation
    ? { status: validation.status, country: validation.country }
    : customer.vat_id
      ? { status: 'unavailable' as const, country: customer.vat_id.slice(0, 2) }
      : null;
  return deriveTaxTreatment({ sellerCountry: sellerCountry ?? billingCountry ?? '', billingCountry, vat, override });
}

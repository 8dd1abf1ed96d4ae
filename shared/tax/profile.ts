/**
 * What pricing needs to know of a customer to derive the sale's tax treatment: its VAT ID, the
 * last VIES answer for it, and the shop's override. The customers module fills it from the stored
 * customer (`customerTaxProfile` in shared/customers); pricing reads only this shape.
 */
import type { TaxTreatment } from './treatment';
import type { ViesCheck } from './vies';

export interface CustomerTaxProfile {
  vat_id: string | null;
  vat_validation: ViesCheck | null;
  tax_treatment_override: TaxTreatment | null;
}

/** A sale without a known customer (a guest, a manual invoice without customer): no VAT ID, no override. */
export const NO_TAX_PROFILE: CustomerTaxProfile = { vat_id: null, vat_validation: null, tax_treatment_override: null };

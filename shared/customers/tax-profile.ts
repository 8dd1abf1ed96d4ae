/**
 * The customer's tax profile as pricing reads it (shared/tax/profile.ts). Until customers store a
 * VAT ID, every customer is a sale without one.
 */
import { NO_TAX_PROFILE, type CustomerTaxProfile } from '#shared/tax/profile';
import type { CustomerRecord } from './stored';

export function customerTaxProfile(customer: CustomerRecord | null | undefined): CustomerTaxProfile {
  void customer;
  return NO_TAX_PROFILE;
}

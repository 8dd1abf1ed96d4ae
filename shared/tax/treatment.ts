/**
 * A sale's tax treatment: which VAT regime a customer is charged under, derived when a price is
 * made from the seller's country, the billing country and the customer's checked VAT ID.
 *
 * | treatment           | when                                                                 | charged                         |
 * |---------------------|----------------------------------------------------------------------|---------------------------------|
 * | `domestic`          | billing in the seller's country, no billing country, or VIES down    | the account's rates             |
 * | `eu_reverse_charge` | billing in another member state, VAT ID valid in VIES for that state | 0 %, category AE, legal note    |
 * | `export`            | billing outside the EU                                               | 0 %, category G, legal note     |
 * | `eu_consumer`       | billing in another member state, no VAT ID (or one VIES refuses)     | the account's rates             |
 *
 * VIES being unavailable never blocks an order: the sale is charged domestic VAT and carries a
 * warning, so the shop can correct it by credit note once VIES answers. A shop may override the
 * derived treatment per customer (audited where it is set).
 */
import type { ViesStatus } from './vies';

export const TAX_TREATMENTS = ['domestic', 'eu_reverse_charge', 'export', 'eu_consumer'] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];

/**
 * The 27 member states by ISO 3166-1 alpha-2 (Greece is GR here; its VAT IDs carry EL). Northern
 * Ireland's goods trade follows EU VAT rules but shares GB's ISO code, so a GB billing address is
 * an export; a shop selling to Northern Ireland overrides the treatment.
 */
export const EU_MEMBER_STATES: ReadonlySet<string> = /* @__PURE__ */ new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT',
  'RO', 'SE', 'SI', 'SK',
]); // prettier-ignore

/** The ISO country a VAT ID prefix stands for (EL is Greece; XI, Northern Ireland, has no EU member code). */
export const countryOfVatPrefix = (prefix: string): string => (prefix === 'EL' ? 'GR' : prefix);

export interface TaxTreatmentInput {
  /** The seller's (account company's) country, ISO alpha-2. */
  sellerCountry: string;
  /** The billing address's country, ISO alpha-2; null when the sale has none. */
  billingCountry: string | null;
  /** The customer's VAT ID as last checked: its VIES status and prefix; null when the customer has none. */
  vat: { status: ViesStatus; country: string } | null;
  /** The shop's explicit choice for this customer, if any. */
  override: TaxTreatment | null;
}

export interface TaxTreatmentDecision {
  treatment: TaxTreatment;
  /** `override` when the shop chose it, else `derived`. */
  source: 'override' | 'derived';
  /** Why the derived treatment may be wrong (VIES unavailable, VAT ID refused or of another state); null when sure. */
  warning: string | null;
}

export function deriveTaxTreatment(input: TaxTreatmentInput): TaxTreatmentDecision {
  if (input.override) return { treatment: input.override, source: 'override', warning: null };
  const decided = (treatment: TaxTreatment, warning: string | null = null): TaxTreatmentDecision => ({
    treatment,
    source: 'derived',
    warning,
  });
  const seller = input.sellerCountry.toUpperCase();
  const billing = input.billingCountry?.toUpperCase() ?? null;
  if (billing === null || billing === seller) return decided('domestic');
  if (!EU_MEMBER_STATES.has(billing)) return decided('export');
  // An EU seller's sale to another member state; a seller outside the EU exports to every other country.
  if (!EU_MEMBER_STATES.has(seller)) return decided('export');
  const vat = input.vat;
  if (vat === null) return decided('eu_consumer');
  if (vat.status === 'unavailable') {
    return decided('domestic', 'VIES did not answer for the VAT ID: domestic VAT is charged until it can be confirmed');
  }
  if (vat.status === 'invalid') return decided('eu_consumer', 'VIES does not know the VAT ID: charged as a consumer sale');
  if (countryOfVatPrefix(vat.country) !== billing) {
    return decided('eu_consumer', `The VAT ID is of ${vat.country}, the billing address in ${billing}: charged as a consumer sale`);
  }
  return decided('eu_reverse_charge');
}

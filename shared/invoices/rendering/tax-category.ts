/**
 * The VAT category (EN 16931 BT-118 / BT-151, code list UNTDID 5305) behind a tax rate, shared
 * by the PDF and the e-invoice so both state the same thing.
 *
 * A rate above 0 is S (standard rate; reduced rates such as 7 % are S too in EN 16931). For 0 %
 * the document says nothing about why, so E (exempt) is used with a generic reason text: E may sit
 * beside S groups in one invoice, needs only a reason (BR-E-10) and the seller's VAT ID or tax
 * number (BR-E-02, always present). Z (zero rated) would claim a zero-rated supply, which German
 * law hardly knows; O (not subject to VAT) forbids the seller's VAT ID and any other category in
 * the same invoice (BR-O-02, BR-O-11); AE, K and G claim reverse charge, an intra-EU supply or an
 * export and need facts the document does not carry.
 */

export interface TaxCategory {
  code: 'S' | 'E';
  /** BT-120, only for E. */
  exemptionReason: string | null;
}

export const EXEMPTION_REASON = 'Exempt from VAT';

export function taxCategory(ratePercent: number): TaxCategory {
  return ratePercent > 0 ? { code: 'S', exemptionReason: null } : { code: 'E', exemptionReason: EXEMPTION_REASON };
}

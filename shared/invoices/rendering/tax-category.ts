/**
 * The VAT category (EN 16931 BT-118 / BT-151, code list UNTDID 5305) of an applied tax category and
 * rate, with the exemption reason (BT-120 text, BT-121 VATEX code) it needs — shared by the PDF and
 * the e-invoice so both state the same thing.
 *
 * | category            | code | rate | reason (BT-120 / BT-121)                   | rules                  |
 * |---------------------|------|------|--------------------------------------------|------------------------|
 * | standard / reduced  | S    | > 0  | none (BR-S-10)                             | BR-S-05, BR-S-08/09    |
 * | standard / reduced 0 %, zero | Z | 0 | none (BR-Z-10)                          | BR-Z-05, BR-Z-08/09    |
 * | exempt              | E    | 0    | the line's own text (BR-E-10)              | BR-E-05, BR-E-08/09    |
 * | reverse_charge      | AE   | 0    | VATEX-EU-AE + legal text (BR-AE-10)        | BR-AE-02 (both VAT IDs), BR-AE-05 |
 * | export              | G    | 0    | VATEX-EU-G + legal text (BR-G-10)          | BR-G-02 (seller VAT ID), BR-G-05  |
 */
import { TAX_NOTES, vatCategoryCode, type AppliedTaxCategory, type VatCategoryCode } from '#shared/tax/categories';
import { EXEMPTION_REASON } from '#shared/invoices/exemption';

export { EXEMPTION_REASON };

export interface TaxCategory {
  code: VatCategoryCode;
  /** BT-121, the VATEX code: AE and G. */
  exemptionReasonCode: string | null;
  /** BT-120: E (the shop's reason), AE and G (the legal text). */
  exemptionReason: string | null;
}

/** The VAT category of an applied category at `rate`; `reason`: an exempt line's own (E needs one, BR-E-10). */
export function taxCategory(category: AppliedTaxCategory, rate: number, reason: string | null = null): TaxCategory {
  const code = vatCategoryCode(category, rate);
  switch (code) {
    case 'AE':
      return { code, exemptionReasonCode: TAX_NOTES.reverse_charge.code, exemptionReason: TAX_NOTES.reverse_charge.text };
    case 'G':
      return { code, exemptionReasonCode: TAX_NOTES.export.code, exemptionReason: TAX_NOTES.export.text };
    case 'E':
      return { code, exemptionReasonCode: null, exemptionReason: reason ?? EXEMPTION_REASON };
    default:
      return { code, exemptionReasonCode: null, exemptionReason: null };
  }
}

/** The legal notes an invoice (or quote) with these categories prints and writes as a note: reverse charge, export. */
export function legalNotes(categories: Iterable<AppliedTaxCategory>): string[] {
  const present = new Set(categories);
  return (['reverse_charge', 'export'] as const).filter((category) => present.has(category)).map((category) => TAX_NOTES[category].text);
}

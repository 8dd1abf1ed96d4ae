/** The reason invoices issued before tax categories gave for a 0 % line (their documents' BT-120). */
export const EXEMPTION_REASON = 'Exempt from VAT';

/**
 * The seller block an invoice needs, kept on the account (one company per account, the same in
 * test and live mode): legal name, postal address, VAT ID and/or tax number, bank account,
 * contact, payment terms and the invoice footer. Invoices copy it when they are issued, so a later
 * change never alters an issued invoice.
 */
import type { PostalAddress } from '#shared/schemas/address';

export const DEFAULT_PAYMENT_TERMS_DAYS = 14;
/** How long a quote is valid when its create names no `valid_until`. */
export const DEFAULT_QUOTE_VALIDITY_DAYS = 30;

export interface Company {
  legal_name: string | null;
  address: PostalAddress | null;
  vat_id: string | null;
  tax_number: string | null;
  iban: string | null;
  bic: string | null;
  email: string | null;
  phone: string | null;
  payment_terms_days: number;
  invoice_footer: string | null;
  quote_validity_days: number;
}

export const emptyCompany = (): Company => ({
  legal_name: null,
  address: null,
  vat_id: null,
  tax_number: null,
  iban: null,
  bic: null,
  email: null,
  phone: null,
  payment_terms_days: DEFAULT_PAYMENT_TERMS_DAYS,
  invoice_footer: null,
  quote_validity_days: DEFAULT_QUOTE_VALIDITY_DAYS,
});

/** A company whose mandatory invoice fields are all set. */
export type InvoicingCompany = Company & { legal_name: string; address: PostalAddress; email: string; phone: string };

/**
 * The fields an invoice cannot be issued without (§ 14 UStG / EN 16931: seller name, address,
 * VAT ID or tax number; XRechnung: the seller contact's email and phone, BR-DE-5/-6/-7), as
 * `company.<field>`.
 */
export function missingInvoiceFields(company: Company | null): string[] {
  const value = company ?? emptyCompany();
  const missing: string[] = [];
  if (!value.legal_name) missing.push('company.legal_name');
  if (!value.address) missing.push('company.address');
  if (!value.vat_id && !value.tax_number) missing.push('company.vat_id');
  if (!value.email) missing.push('company.email');
  if (!value.phone) missing.push('company.phone');
  return missing;
}

export const canInvoice = (company: Company | null): company is InvoicingCompany =>
  company !== null && missingInvoiceFields(company).length === 0;

/** `DE89 3704 0044 0532 0130 00` → `DE89370400440532013000`, upper case. */
export const compactCode = (value: string): string => value.replace(/[\s-]/g, '').toUpperCase();

/** ISO 13616: country, check digits, up to 30 alphanumerics, and the mod-97 check equal to 1. */
export function isValidIban(value: string): boolean {
  const iban = compactCode(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const digits = /\d/.test(character) ? character : String(character.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** ISO 9362: bank, country, location, optional branch (8 or 11 characters). */
export const isValidBic = (value: string): boolean => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(compactCode(value));

/** A VAT identification number: country prefix (EL for Greece, XI for Northern Ireland) and 2–13 characters. */
export const isValidVatId = (value: string): boolean => /^[A-Z]{2}[A-Z0-9+*]{2,13}$/.test(compactCode(value));

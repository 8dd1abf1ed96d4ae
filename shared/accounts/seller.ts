/**
 * The seller block of the shop's documents (invoices, quote PDFs), from the account's company:
 * read once, checked for the fields a document cannot do without (422 naming each missing one),
 * and copied into the block the documents print.
 */
import { NotFoundError, ValidationError } from '#shared/errors';
import type { PostalAddress } from '#shared/schemas/address';
import { missingInvoiceFields, type InvoicingCompany } from './company';
import { getAccount } from './repository';
import type { Account } from './stored';

export interface SellerBlock {
  legal_name: string;
  address: PostalAddress;
  vat_id: string | null;
  tax_number: string | null;
  iban: string | null;
  bic: string | null;
  email: string;
  phone: string | null;
  payment_terms_days: number;
  footer: string | null;
}

export const sellerBlockOf = (company: InvoicingCompany): SellerBlock => ({
  legal_name: company.legal_name,
  address: company.address,
  vat_id: company.vat_id,
  tax_number: company.tax_number,
  iban: company.iban,
  bic: company.bic,
  email: company.email,
  phone: company.phone,
  payment_terms_days: company.payment_terms_days,
  footer: company.invoice_footer,
});

/** The account and its seller block; 422 naming the missing company fields, for `what` (an invoice, a quote PDF). */
export async function requireSeller(
  accountId: string,
  what: string,
): Promise<{ account: Account; company: InvoicingCompany; seller: SellerBlock }> {
  const account = await getAccount(accountId);
  if (!account) throw new NotFoundError('account', accountId);
  const missing = missingInvoiceFields(account.company);
  if (missing.length > 0) {
    throw new ValidationError(
      `The account's company details are incomplete: ${what} needs them (set them with PUT /v1/account)`,
      missing.map((field) => ({ field, message: `is required for ${what}` })),
    );
  }
  const company = account.company as InvoicingCompany;
  return { account, company, seller: sellerBlockOf(company) };
}

/**
 * A quote's PDF ("Angebot / Quote", with its validity), drawn by the invoices' document code
 * (shared/invoices/rendering/quote-pdf.ts), rendered once per quote version and kept in the
 * documents bucket (a quote may change while open: each version has its own PDF). The seller block
 * is the account's company as it is when the version is first rendered. The renderer is imported
 * on first need only: a download served from the bucket never evaluates it.
 */
import { requireSeller } from '#shared/accounts/seller';
import type { Tenant } from '#shared/auth/principal';
import { quoteKeys } from '#shared/db/keys';
import { billedLines, documentLine } from '#shared/invoices/billed-lines';
import { isStored, presignedGet, readStored, store } from '#shared/invoices/document-store';
import type { QuoteDocument } from '#shared/invoices/rendering/quote-pdf';
import type { QuoteRecord } from './stored';

const PDF = 'application/pdf';

export const quotePdfFilename = (quote: Pick<QuoteRecord, 'quote_number'>): string => `${quote.quote_number}.pdf`;

/** What the renderer needs, from the quote and the account's company (422 naming what is missing). */
async function quoteDocumentOf(tenant: Tenant, quote: QuoteRecord): Promise<QuoteDocument> {
  const { seller } = await requireSeller(tenant.accountId, 'a quote PDF');
  const taxable = quote.subtotal + quote.shipping;
  return {
    quote_number: quote.quote_number,
    test_mode: tenant.mode === 'test',
    currency: quote.currency,
    issue_date: quote.created_at.slice(0, 10),
    valid_until: quote.valid_until,
    seller,
    buyer: {
      id: quote.customer.id,
      name: quote.customer.name,
      email: quote.customer.email,
      company: quote.billing_address?.company ?? null,
      vat_id: null,
      buyer_reference: null,
      address: quote.billing_address,
    },
    lines: billedLines(quote.items).map(documentLine),
    shipping: quote.shipping,
    shipping_tax_category: quote.shipping_tax_category,
    shipping_tax_rate: quote.shipping_tax_rate,
    subtotal: taxable,
    // The quote's (and its order's) own breakdown: one group per category and rate, rounded once each.
    tax_breakdown: quote.taxes.map((entry) => ({
      category: entry.category,
      tax_rate: entry.rate,
      taxable_amount: entry.taxable_amount,
      tax_amount: entry.tax_amount,
    })),
    tax: quote.tax,
    total: quote.total,
    notes: quote.notes,
  };
}

async function render(tenant: Tenant, quote: QuoteRecord): Promise<Uint8Array> {
  const { renderQuotePdf } = await import('#shared/invoices/rendering/quote-pdf');
  return renderQuotePdf(await quoteDocumentOf(tenant, quote));
}

/** The PDF of the quote's current version, from the bucket or rendered and stored now. */
export async function quotePdf(tenant: Tenant, quote: QuoteRecord): Promise<{ bytes: Uint8Array; filename: string; cached: boolean }> {
  const key = quoteKeys.document(tenant, quote.id, quote.version);
  const filename = quotePdfFilename(quote);
  const stored = await readStored(key);
  if (stored) return { bytes: stored, filename, cached: true };
  const bytes = await render(tenant, quote);
  await store(key, bytes, PDF, filename);
  return { bytes, filename, cached: false };
}

/** A presigned URL of the PDF (rendered first if need be), valid 15 minutes. */
export async function presignedQuotePdf(tenant: Tenant, quote: QuoteRecord, now = new Date()) {
  const key = quoteKeys.document(tenant, quote.id, quote.version);
  const filename = quotePdfFilename(quote);
  if (!(await isStored(key))) await store(key, await render(tenant, quote), PDF, filename);
  return presignedGet(key, PDF, filename, now);
}

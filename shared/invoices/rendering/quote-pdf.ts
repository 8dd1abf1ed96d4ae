/**
 * A quote (an offer before any order or invoice) as a PDF. It is the invoice's page drawn by
 * `renderSalesPdf` (pdf.ts): same seller and buyer blocks, line table, tax breakdown, totals,
 * footer, TEST watermark and page breaks, so a customer sees the same figures laid out the same
 * way from quote to invoice. Only the facts differ, and there are no payment terms: nothing is
 * owed yet, so the closing block says how long the offer stands instead.
 */
import type { AppliedTaxCategory } from '#shared/tax/categories';
import type { DocumentBuyer, DocumentLine, DocumentSeller, DocumentTaxGroup } from '#shared/invoices/document';
import { renderSalesPdf } from './pdf';

/** What a quote's PDF is made from; money in integer minor units, like `InvoiceDocument`. */
export interface QuoteDocument {
  quote_number: string;
  /** Test-mode quotes carry the visible TEST watermark. */
  test_mode: boolean;
  /** ISO 4217, e.g. EUR. */
  currency: string;
  /** YYYY-MM-DD. */
  issue_date: string;
  /** YYYY-MM-DD: the last day the offer stands. */
  valid_until: string;
  seller: DocumentSeller;
  /** `address` null for a customer without a billing address (name and email are printed). */
  buyer: DocumentBuyer;
  lines: DocumentLine[];
  /** Shipping charge (net, minor units) at `shipping_tax_rate`; 0 when none. Printed as its own line. */
  shipping: number;
  shipping_tax_category: AppliedTaxCategory;
  shipping_tax_rate: number;
  /** Sum of line net amounts + shipping, minor units. */
  subtotal: number;
  tax_breakdown: DocumentTaxGroup[];
  /** Sum of the breakdown's tax amounts. */
  tax: number;
  /** subtotal + tax. */
  total: number;
  notes: string | null;
}

export async function renderQuotePdf(quote: QuoteDocument): Promise<Uint8Array> {
  return renderSalesPdf(quote, {
    title: 'Angebot / Quote',
    name: `Quote ${quote.quote_number}`,
    facts: [
      ['Quote number', quote.quote_number],
      ['Issue date', quote.issue_date],
      ['Valid until', quote.valid_until],
    ],
    buyerCaption: 'QUOTE FOR',
    closing: {
      title: 'Validity',
      text: `This quote is valid until ${quote.valid_until}. Prices are net plus VAT as shown.`,
    },
  });
}

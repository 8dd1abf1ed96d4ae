/**
 * Sample `QuoteDocument`s for the quote PDF tests. The figures come from `invoiceDocument`
 * (test/support/invoice-documents.ts), which derives them the way the invoice service does, so a
 * quote reconciles exactly like an invoice and the two samples can be compared line for line.
 */
import type { DocumentLine } from '#shared/invoices/document';
import type { QuoteDocument } from '#shared/invoices/rendering/quote-pdf';
import { invoiceDocument, line } from '#test/support/invoice-documents';

interface Options {
  quote_number?: string;
  test_mode?: boolean;
  valid_until?: string;
  shipping?: number;
  shipping_tax_rate?: number;
  notes?: string | null;
  buyer?: Partial<QuoteDocument['buyer']>;
  seller?: Partial<QuoteDocument['seller']>;
}

/** A complete quote around `lines`, every total computed from them. */
export function quoteDocument(lines: DocumentLine[], options: Options = {}): QuoteDocument {
  const { quote_number, valid_until, notes, ...shared } = options;
  const invoice = invoiceDocument(lines, { ...shared, notes: notes === undefined ? 'Preise inkl. Druckdaten-Check · Łódź' : notes });
  return {
    quote_number: quote_number ?? 'Q-2025-000017',
    test_mode: invoice.test_mode,
    currency: invoice.currency,
    issue_date: invoice.issue_date,
    valid_until: valid_until ?? '2025-04-13',
    seller: invoice.seller,
    buyer: invoice.buyer,
    lines: invoice.lines,
    shipping: invoice.shipping,
    shipping_tax_category: invoice.shipping_tax_category,
    shipping_tax_rate: invoice.shipping_tax_rate,
    subtotal: invoice.subtotal,
    tax_breakdown: invoice.tax_breakdown,
    tax: invoice.tax,
    total: invoice.total,
    notes: invoice.notes,
  };
}

/** Three lines, one with a setup fee, shipping at 19 %. */
export function shortQuote(options: Options = {}): QuoteDocument {
  return quoteDocument(
    [
      line(1, 'Poster A2, 170 g matt — Motiv „Łódź bei Nacht“', 50, 349, 19, 2500),
      line(2, 'Visitenkarten 85×55 mm, 350 g, beidseitig (Müller)', 500, 9),
      line(3, 'Bildband „Ελληνικά“, Hardcover', 20, 1890, 7),
    ],
    { shipping: 690, ...options },
  );
}

/** 60 lines at alternating rates, long enough to span more than one page. */
export function longQuote(options: Options = {}): QuoteDocument {
  const lines = Array.from({ length: 60 }, (_, index) => {
    const position = index + 1;
    const description =
      position % 10 === 0
        ? `Sonderanfertigung ${position}: Banner 3×1 m, PVC-Plane mit Ösen, Lieferung an Filiale Łódź`
        : `Artikel ${position}: Aufkleber rund, 50 mm`;
    return line(position, description, (position % 5) + 1, 150 + position * 11, position % 4 === 0 ? 7 : 19);
  });
  return quoteDocument(lines, { shipping: 1490, quote_number: 'Q-2025-000060', ...options });
}

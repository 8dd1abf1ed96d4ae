/**
 * Sample `InvoiceDocument`s for the renderer tests. Totals are derived from the lines the way the
 * invoice service derives them (net per line, shipping at its own category and rate, tax half-up once per category and rate),
 * so every sample reconciles exactly and a test can change lines without recomputing figures.
 */
import type { DocumentLine, DocumentSeller, InvoiceDocument } from '#shared/invoices/document';
import { lineAmount } from '#shared/invoices/totals';
import { taxBreakdown, type AppliedTaxCategory } from '#shared/tax/categories';

export const seller: DocumentSeller = {
  legal_name: 'Druckerei Sonnenschein GmbH',
  address: {
    name: 'Druckerei Sonnenschein GmbH',
    company: 'Druckerei Sonnenschein GmbH',
    line1: 'Papierweg 12',
    line2: null,
    postal_code: '10115',
    city: 'Berlin',
    region: null,
    country: 'DE',
  },
  vat_id: 'DE123456789',
  tax_number: '30/123/45678',
  iban: 'DE02120300000000202051',
  bic: 'BYLADEM1001',
  email: 'billing@druckerei-sonnenschein.example',
  phone: '+49 30 1234567',
  payment_terms_days: 14,
  footer: 'Druckerei Sonnenschein GmbH · Amtsgericht Charlottenburg HRB 12345 · Geschäftsführer: Jürgen Weiß',
};

/** A sample line's category unless told: reduced at 7 %, exempt (as documents said before categories) at 0 %, else standard. */
const categoryOf = (rate: number): AppliedTaxCategory => (rate === 7 ? 'reduced' : rate === 0 ? 'exempt' : 'standard');

/** A line whose net amount is quantity × unit price plus an optional setup fee. */
export function line(
  position: number,
  description: string,
  quantity: number,
  unitPrice: number,
  taxRate = 19,
  setupFee = 0,
  category: AppliedTaxCategory = categoryOf(taxRate),
  exemptionReason: string | null = category === 'exempt' ? 'Exempt from VAT' : null,
): DocumentLine {
  return {
    position,
    description,
    quantity,
    unit_price: unitPrice,
    tax_category: category,
    tax_rate: taxRate,
    exemption_reason: exemptionReason,
    net_amount: lineAmount(quantity, unitPrice) + setupFee,
  };
}

interface Options {
  invoice_number?: string;
  test_mode?: boolean;
  shipping?: number;
  shipping_tax_rate?: number;
  shipping_tax_category?: AppliedTaxCategory;
  amount_paid?: number;
  order_number?: string | null;
  notes?: string | null;
  buyer?: Partial<InvoiceDocument['buyer']>;
  seller?: Partial<DocumentSeller>;
}

/** A complete document around `lines`, every total computed from them. */
export function invoiceDocument(lines: DocumentLine[], options: Options = {}): InvoiceDocument {
  const shipping = options.shipping ?? 0;
  const shippingRate = options.shipping_tax_rate ?? 19;
  const shippingCategory = options.shipping_tax_category ?? (shippingRate > 0 ? 'standard' : 'zero');
  // One group per category and rate, rounded once each (shared/tax/categories.ts taxBreakdown).
  const tax_breakdown = taxBreakdown([
    ...lines.map((item) => ({ category: item.tax_category, rate: item.tax_rate, amount: item.net_amount })),
    ...(shipping > 0 ? [{ category: shippingCategory, rate: shippingRate, amount: shipping }] : []),
  ]).map((entry) => ({
    category: entry.category,
    tax_rate: entry.rate,
    taxable_amount: entry.taxable_amount,
    tax_amount: entry.tax_amount,
  }));
  const subtotal = lines.reduce((sum, { net_amount }) => sum + net_amount, 0) + shipping;
  const tax = tax_breakdown.reduce((sum, { tax_amount }) => sum + tax_amount, 0);
  const amountPaid = options.amount_paid ?? 0;
  return {
    type_code: '380',
    invoice_number: options.invoice_number ?? 'INV-2025-000042',
    preceding_invoice: null,
    test_mode: options.test_mode ?? false,
    currency: 'EUR',
    issue_date: '2025-03-14',
    due_date: '2025-03-28',
    service_date: '2025-03-12',
    order_number: options.order_number === undefined ? 'ORD-1007' : options.order_number,
    seller: { ...seller, ...options.seller },
    buyer: {
      id: 4711,
      name: 'Zofia Łódź-Müller',
      email: 'zofia@orsted-mueller.example',
      company: 'Ørsted & Müller Sp. z o.o.',
      vat_id: 'PL5260250995',
      buyer_reference: '04011000-12345-34',
      address: {
        name: 'Zofia Łódź-Müller',
        company: 'Ørsted & Müller Sp. z o.o.',
        line1: 'ul. Piotrkowska 104',
        line2: 'Lokal 7',
        postal_code: '90-006',
        city: 'Łódź',
        region: null,
        country: 'PL',
      },
      ...options.buyer,
    },
    lines,
    shipping,
    shipping_tax_category: shippingCategory,
    shipping_tax_rate: shippingRate,
    subtotal,
    tax_breakdown,
    tax,
    total: subtotal + tax,
    amount_paid: amountPaid,
    amount_due: subtotal + tax - amountPaid,
    notes: options.notes === undefined ? 'Vielen Dank für Ihren Auftrag! Ελληνικά · Кириллица' : options.notes,
  };
}

/** Three lines, one with a setup fee, shipping at 19 %. */
export function shortInvoice(options: Options = {}): InvoiceDocument {
  return invoiceDocument(
    [
      line(1, 'Poster A2, 170 g matt — Motiv „Łódź bei Nacht“', 50, 349, 19, 2500),
      line(2, 'Visitenkarten 85×55 mm, 350 g, beidseitig (Müller)', 500, 9),
      line(3, 'Flyer DIN lang, Ørsted-Kampagne', 1000, 4),
    ],
    { shipping: 690, ...options },
  );
}

/** Lines at 19 %, 7 % (books) and 0 % (exempt), one of 1.5 hours, partly paid. */
export function mixedRatesInvoice(options: Options = {}): InvoiceDocument {
  return invoiceDocument(
    [
      line(1, 'Broschüren A5, 32 Seiten', 200, 415, 19),
      line(2, 'Buch „Ελληνικά für Anfänger“, Hardcover', 25, 1890, 7),
      line(3, 'Kalender 2026 (Кириллица edition)', 40, 1250, 7, 1500),
      line(4, 'Gestaltung für gemeinnützigen Verein (steuerfrei)', 1, 12000, 0),
      line(5, 'Satzarbeiten (Stunden)', 1.5, 6500, 19),
    ],
    { shipping: 990, shipping_tax_rate: 19, amount_paid: 10000, ...options },
  );
}

/** 120 lines at alternating rates, long enough to span several pages. */
export function longInvoice(options: Options = {}): InvoiceDocument {
  const lines = Array.from({ length: 120 }, (_, index) => {
    const position = index + 1;
    const description =
      position % 10 === 0
        ? `Sonderanfertigung ${position}: Plakat B1 auf Blueback-Papier, wetterfest, mit Ösen alle 50 cm, Lieferung an Filiale Łódź`
        : `Artikel ${position}: Flyer A6, 135 g`;
    return line(position, description, (position % 7) + 1, 199 + position * 13, position % 3 === 0 ? 7 : 19);
  });
  return invoiceDocument(lines, { shipping: 1490, invoice_number: 'INV-2025-000120', ...options });
}

const foreignBuyer = (country: string, vatId: string | null) => ({
  name: 'Käufer',
  company: 'Ausland Druck',
  vat_id: vatId,
  buyer_reference: null,
  address: {
    name: 'Käufer',
    company: 'Ausland Druck',
    line1: 'Hauptplatz 1',
    line2: null,
    postal_code: '1010',
    city: 'Wien',
    region: null,
    country,
  },
});

/** A sale to a business in another member state with a VAT ID VIES confirmed: every line and the shipping reverse charge (AE). */
export function reverseChargeInvoice(options: Options = {}): InvoiceDocument {
  return invoiceDocument(
    [
      line(1, 'Broschüren A5, 32 Seiten', 200, 415, 0, 0, 'reverse_charge', null),
      line(2, 'Flyer A6', 1000, 4, 0, 1500, 'reverse_charge', null),
    ],
    { shipping: 990, shipping_tax_rate: 0, shipping_tax_category: 'reverse_charge', buyer: foreignBuyer('AT', 'ATU10000005'), ...options },
  );
}

/** A sale to a buyer outside the EU: every line and the shipping an export (G). */
export function exportInvoice(options: Options = {}): InvoiceDocument {
  return invoiceDocument([line(1, 'Plakate A1', 50, 349, 0, 0, 'export', null)], {
    shipping: 2500,
    shipping_tax_rate: 0,
    shipping_tax_category: 'export',
    buyer: foreignBuyer('CH', null),
    ...options,
  });
}

/** A domestic sale with a zero-rated line (Z) and an exempt one with the shop's own reason (E) beside standard lines (S). */
export function zeroAndExemptInvoice(options: Options = {}): InvoiceDocument {
  return invoiceDocument(
    [
      line(1, 'Flyer A6', 1000, 4, 19),
      line(2, 'Druck für Hilfslieferung (nullsatzig)', 1, 5000, 0, 0, 'zero', null),
      line(3, 'Schulungskurs Druckvorstufe', 1, 12000, 0, 0, 'exempt', 'Steuerfrei nach § 4 Nr. 21 UStG'),
    ],
    { shipping: 490, ...options },
  );
}

/**
 * A credit note (type 381) for two lines and the shipping of `shortInvoice`: positive amounts, the
 * corrected invoice as BT-25/BT-26, the reason as its note.
 */
export function creditNoteDocument(options: Options = {}): InvoiceDocument {
  const doc = invoiceDocument(
    [
      line(1, 'Poster A2, 170 g matt — Motiv „Łódź bei Nacht“', 10, 349),
      line(2, 'Visitenkarten 85×55 mm, 350 g, beidseitig (Müller)', 500, 9),
    ],
    { shipping: 690, invoice_number: 'CN-2025-000007', notes: 'Reason: Posters damaged in transit', ...options },
  );
  return {
    ...doc,
    type_code: '381',
    preceding_invoice: { number: 'INV-2025-000042', issue_date: '2025-03-14' },
    due_date: '2025-03-20',
    issue_date: '2025-03-20',
  };
}

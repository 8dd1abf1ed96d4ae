/**
 * The quote PDF as a reader gets it, read with poppler like the invoice PDF
 * (test/unit/invoice-pdf.test.ts): the layout is shared, so these tests check what a quote says
 * differently (title, quote number, validity, no payment terms) and that the shared parts
 * (buyer in any script, totals, TEST watermark, page breaks) still hold for it.
 */
import { describe, expect, it, vi } from 'vitest';
import { formatMinor } from '#shared/money';
import { renderQuotePdf, type QuoteDocument } from '#shared/invoices/rendering/quote-pdf';
import { tool, writeScratch } from '#test/support/document-tools';
import { longQuote, shortQuote } from '#test/support/quote-documents';
import { DOCUMENT_TEST_TIMEOUT_MS } from '#test/support/timeouts';

// A document test: its own timeout (test/support/timeouts.ts).
vi.setConfig({ testTimeout: DOCUMENT_TEST_TIMEOUT_MS });

let counter = 0;

async function rendered(doc: QuoteDocument) {
  const bytes = await renderQuotePdf(doc);
  const file = writeScratch(`quote-${++counter}.pdf`, bytes);
  const info = tool('pdfinfo', [file]);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1]);
  const pageText = (page: number, mode = '-layout') => tool('pdftotext', ['-f', String(page), '-l', String(page), mode, file, '-']).stdout;
  return { bytes, file, pages, info, text: tool('pdftotext', ['-layout', file, '-']).stdout, pageText };
}

const money = (minor: number) => `${formatMinor(minor)} EUR`;

describe('quote PDF', () => {
  it('is a PDF titled as a quote, with its number, validity, the buyer as written, and the total', async () => {
    const doc = shortQuote();
    const { bytes, file, text, info, pages } = await rendered(doc);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    expect(info.stderr).toBe('');
    expect(info.stdout).toMatch(new RegExp(`^Title:\\s+Quote ${doc.quote_number}$`, 'm'));
    expect(pages).toBe(1);
    expect(text).toContain('Angebot / Quote');
    expect(text).toMatch(new RegExp(`Quote number\\s+${doc.quote_number}`));
    expect(text).toMatch(new RegExp(`Valid until\\s+${doc.valid_until}`));
    expect(text).toContain(`This quote is valid until ${doc.valid_until}. Prices are net plus VAT as shown.`);
    expect(text).toContain('QUOTE FOR');
    expect(text).toContain('Ørsted & Müller Sp. z o.o.');
    expect(text).toContain('Zofia Łódź-Müller');
    expect(text).toContain('90-006 Łódź');
    expect(text).toContain('Bildband „Ελληνικά“');
    expect(text).toContain('Preise inkl. Druckdaten-Check · Łódź');
    expect(text).toMatch(/Shipping\s+1\s+6\.90 EUR\s+19 %\s+6\.90 EUR/);
    for (const group of doc.tax_breakdown)
      expect(text).toMatch(new RegExp(`VAT ${group.tax_rate} % of ${money(group.taxable_amount)}\\s+${money(group.tax_amount)}`));
    expect(text).toMatch(new RegExp(`Subtotal \\(net\\)\\s+${money(doc.subtotal)}`));
    expect(text).toMatch(new RegExp(`Total\\s+${money(doc.total)}`));
    expect(text).toContain('Page 1 of 1');
    expect(text).toContain('Amtsgericht Charlottenburg');
    expect(tool('pdftotext', ['-raw', file, '-']).stdout).not.toMatch(/\bTEST\b/);
  });

  it('says nothing an invoice would: no invoice number, due or service date, payment terms or bank account', async () => {
    const { text } = await rendered(shortQuote());
    for (const invoiceOnly of ['Invoice', 'Due date', 'Service date', 'Payment terms', 'Please pay', 'IBAN', 'Amount due', 'BILL TO'])
      expect(text).not.toContain(invoiceOnly);
  });

  it('prints a buyer without billing address, and no notes block without notes', async () => {
    const { text } = await rendered(shortQuote({ notes: null, buyer: { address: null, company: null } }));
    expect(text).toContain('Zofia Łódź-Müller');
    expect(text).toContain('zofia@orsted-mueller.example');
    expect(text).not.toContain('Notes');
  });

  it('carries a TEST watermark on every page in test mode, and only then', async () => {
    const live = await rendered(longQuote());
    const test = await rendered(longQuote({ test_mode: true }));
    expect(test.pages).toBe(live.pages);
    for (let page = 1; page <= test.pages; page++) {
      expect(test.pageText(page, '-raw'), `page ${page}`).toMatch(/^TEST$/m);
      expect(live.pageText(page, '-raw'), `page ${page}`).not.toMatch(/\bTEST\b/);
    }
  });

  it('spreads 60 lines over more than one page, repeating the table header and numbering the pages', async () => {
    const doc = longQuote();
    const { pages, pageText, text } = await rendered(doc);
    expect(pages).toBeGreaterThan(1);
    const second = pageText(2);
    expect(second).toMatch(/Pos\.\s+Description\s+Qty\s+Unit price\s+Tax\s+Amount/);
    expect(second).toContain(`Quote ${doc.quote_number} (continued)`);
    expect(second).toContain(`Page 2 of ${pages}`);
    for (const position of [1, 30, 60])
      expect(text).toMatch(new RegExp(`^\\s*${position}\\s+(Artikel|Sonderanfertigung) ${position}:`, 'm'));
    expect(pageText(pages)).toMatch(new RegExp(`Total\\s+${money(doc.total)}`));
    expect(pageText(pages)).toContain(`This quote is valid until ${doc.valid_until}.`);
  });
});

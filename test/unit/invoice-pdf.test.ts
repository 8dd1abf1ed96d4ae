/**
 * The invoice PDF as a reader gets it: poppler (pdftotext, pdftoppm, pdfinfo, pdffonts) reads the
 * rendered bytes, so the text checks see what a viewer shows, glyphs of the embedded font included.
 * The diagonal watermark shows up only in pdftotext's -raw mode (its layout modes drop text that
 * is neither horizontal nor vertical).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { InvoiceDocument } from '#shared/invoices/document';
import { formatMinor } from '#shared/money';
import { renderInvoicePdf } from '#shared/invoices/rendering/pdf';
import { scratchDir, tool, writeScratch } from '#test/support/document-tools';
import { creditNoteDocument, longInvoice, mixedRatesInvoice, shortInvoice } from '#test/support/invoice-documents';
import { DOCUMENT_TEST_TIMEOUT_MS } from '#test/support/timeouts';

// A document test: its own timeout (test/support/timeouts.ts).
vi.setConfig({ testTimeout: DOCUMENT_TEST_TIMEOUT_MS });

let counter = 0;

async function rendered(doc: InvoiceDocument) {
  const bytes = await renderInvoicePdf(doc);
  const file = writeScratch(`invoice-${++counter}.pdf`, bytes);
  const info = tool('pdfinfo', [file]);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1]);
  const pageText = (page: number, mode = '-layout') => tool('pdftotext', ['-f', String(page), '-l', String(page), mode, file, '-']).stdout;
  return { bytes, file, pages, info, text: tool('pdftotext', ['-layout', file, '-']).stdout, pageText };
}

const money = (minor: number) => `${formatMinor(minor)} EUR`;

describe('invoice PDF', () => {
  it('is a PDF with the invoice number, the buyer as written, and the total', async () => {
    const doc = shortInvoice();
    const { bytes, file, text, info, pages } = await rendered(doc);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    expect(info.stderr).toBe('');
    expect(pages).toBe(1);
    expect(text).toContain(doc.invoice_number);
    expect(text).toContain('Ørsted & Müller Sp. z o.o.');
    expect(text).toContain('Zofia Łódź-Müller');
    expect(text).toContain('90-006 Łódź');
    expect(text).toContain('Ελληνικά · Кириллица');
    expect(text).toMatch(new RegExp(`Total\\s+${money(doc.total)}`));
    expect(text).toContain('IBAN: DE02 1203 0000 0000 2020 51');
    expect(text).toContain('BIC: BYLADEM1001');
    expect(text).toContain('Order number');
    expect(text).toContain('incl. setup fee 25.00 EUR');
    expect(text).toMatch(/Shipping\s+1\s+6\.90 EUR\s+19 %\s+6\.90 EUR/);
    expect(text).toContain('Page 1 of 1');
    expect(text).toContain('Amtsgericht Charlottenburg');
    expect(tool('pdftotext', ['-raw', file, '-']).stdout).not.toMatch(/\bTEST\b/);
  });

  it('draws a credit note as one: its number, the corrected invoice and its date, the amount credited, no payment request', async () => {
    const doc = creditNoteDocument();
    const { text, pages } = await rendered(doc);
    expect(pages).toBe(1);
    expect(text).toContain('Credit note');
    expect(text).toMatch(/Credit note number\s+CN-2025-000007/);
    expect(text).toMatch(/Corrects invoice\s+INV-2025-000042/);
    expect(text).toMatch(/Invoice date\s+2025-03-14/);
    expect(text).toContain('CREDIT TO');
    expect(text).toMatch(new RegExp(`Total\\s+${money(doc.total)}`));
    expect(text).toContain(`credits ${money(doc.total)} against invoice INV-2025-000042`);
    expect(text).toContain('Reason: Posters damaged in transit');
    expect(text).not.toContain('Please pay');
    expect(text).not.toContain('IBAN');
  });

  it('embeds Noto Sans (regular and bold, subset) and no standard font', async () => {
    const { file } = await rendered(shortInvoice());
    const fonts = tool('pdffonts', [file]).stdout;
    expect(fonts).toMatch(/\+NotoSans-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(fonts).toMatch(/\+NotoSans-Bold\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(fonts).not.toMatch(/Helvetica|Times|Courier/);
  });

  it('renders to PNG without poppler complaining', async () => {
    const { file, pages } = await rendered(shortInvoice({ test_mode: true }));
    const prefix = join(scratchDir(), 'short-page');
    const { stderr } = tool('pdftoppm', ['-r', '40', '-png', file, prefix]);
    expect(stderr).toBe('');
    const images = readdirSync(scratchDir()).filter((name) => name.startsWith('short-page') && name.endsWith('.png'));
    expect(images).toHaveLength(pages);
  });

  it('carries a TEST watermark on every page in test mode, and only then', async () => {
    const live = await rendered(longInvoice());
    const test = await rendered(longInvoice({ test_mode: true }));
    expect(test.pages).toBe(live.pages);
    for (let page = 1; page <= test.pages; page++) {
      expect(test.pageText(page, '-raw'), `page ${page}`).toMatch(/^TEST$/m);
      expect(live.pageText(page, '-raw'), `page ${page}`).not.toMatch(/\bTEST\b/);
    }
  });

  it('spreads 120 lines over several pages, repeating the table header and numbering the pages', async () => {
    const doc = longInvoice();
    const { pages, pageText, text } = await rendered(doc);
    expect(pages).toBeGreaterThan(1);
    const second = pageText(2);
    expect(second).toMatch(/Pos\.\s+Description\s+Qty\s+Unit price\s+Tax\s+Amount/);
    expect(second).toContain(`Invoice ${doc.invoice_number} (continued)`);
    expect(second).toContain(`Page 2 of ${pages}`);
    for (const position of [1, 60, 120])
      expect(text).toMatch(new RegExp(`^\\s*${position}\\s+(Artikel|Sonderanfertigung) ${position}:`, 'm'));
    expect(pageText(pages)).toMatch(new RegExp(`Total\\s+${money(doc.total)}`));
  });

  it('lists the tax per rate, the exempt rate as such, and what is left to pay', async () => {
    const doc = mixedRatesInvoice();
    const { text } = await rendered(doc);
    for (const group of doc.tax_breakdown) {
      const label = group.tax_rate === 0 ? 'VAT 0 % \\(exempt\\)' : `VAT ${group.tax_rate} %`;
      expect(text).toMatch(new RegExp(`${label} of ${money(group.taxable_amount)}\\s+${money(group.tax_amount)}`));
    }
    expect(text).toMatch(new RegExp(`Subtotal \\(net\\)\\s+${money(doc.subtotal)}`));
    expect(text).toMatch(new RegExp(`Amount paid\\s+−${money(doc.amount_paid)}`));
    expect(text).toMatch(new RegExp(`Amount due\\s+${money(doc.amount_due)}`));
    expect(text).toContain(`Please pay ${money(doc.amount_due)}`);
  });

  it('prints a buyer without billing address, and a seller without bank account or order number', async () => {
    const doc = shortInvoice({
      order_number: null,
      notes: null,
      buyer: { address: null, company: null },
      seller: { iban: null, bic: null },
    });
    const { text } = await rendered(doc);
    expect(text).toContain('Zofia Łódź-Müller');
    expect(text).toContain('zofia@orsted-mueller.example');
    expect(text).not.toContain('Order number');
    expect(text).not.toContain('IBAN');
    expect(text).toContain(`Payment reference: ${doc.invoice_number}`);
  });
});

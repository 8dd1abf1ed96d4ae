/**
 * The invoice as a PDF, drawn with pdfkit in an embedded TrueType font (fonts.ts), so names in any
 * Latin, Greek or Cyrillic script print as written. The PDF is also the visual part of the
 * Factur-X hybrid (e-invoice.ts), which is why it embeds every glyph it uses and nothing else.
 *
 * The quote PDF (quote-pdf.ts) is the same page with other facts and another closing block, so
 * the drawing lives in `renderSalesPdf`, and each document only says what differs.
 */
import PDFDocument from 'pdfkit';
import type { DocumentAddress, DocumentBuyer, InvoiceDocument } from '#shared/invoices/document';
import { invoiceFonts } from './fonts';
import {
  BODY_SIZE,
  MUTED,
  PAGE,
  body,
  bold,
  collectPdf,
  contentBottom,
  contentWidth,
  money,
  watermarkEveryPage,
  writeFooters,
  type Doc,
} from './pdf-layout';
import { drawTable, drawTotals, tableRows, totalLines, totalsHeight, type TableSource, type TotalsSource } from './pdf-table';
import { legalNotes } from './tax-category';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code; // not a region code Intl knows: print it as stored
  }
}

/** An address as the documents print it (the shipments' delivery note too). */
export function addressLines(address: DocumentAddress, includeName: boolean): string[] {
  const lines: string[] = [];
  if (includeName) {
    if (address.company) lines.push(address.company);
    if (address.name && address.name !== address.company) lines.push(address.name);
  }
  lines.push(address.line1);
  if (address.line2) lines.push(address.line2);
  lines.push(`${address.postal_code} ${address.city}`);
  if (address.region) lines.push(address.region);
  lines.push(countryName(address.country));
  return lines;
}

function formatIban(iban: string): string {
  return iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** The parts of an invoice or a quote that are drawn the same way in both. */
export type SalesPdfContent = TableSource & TotalsSource & Pick<InvoiceDocument, 'test_mode' | 'seller' | 'buyer' | 'notes'>;

/** What differs between the documents drawn by `renderSalesPdf`. */
export interface SalesPdfLayout {
  /** Printed large, top right: "Invoice", "Angebot / Quote". */
  title: string;
  /** "Invoice INV-…": the PDF's title, the start of its subject, and the head of continued pages. */
  name: string;
  /** Label/value pairs under the title; customer number and buyer reference follow them. */
  facts: [string, string][];
  /** Caption of the buyer block, e.g. "BILL TO". */
  buyerCaption: string;
  /** The titled block after the totals (payment terms, validity); the notes follow it. */
  closing: { title: string; text: string };
}

/** Seller block (left) and the document's facts (right); returns the y below the taller one. */
function drawHeading(doc: Doc, content: SalesPdfContent, layout: SalesPdfLayout): number {
  const { seller, buyer } = content;
  const width = contentWidth(doc);
  const leftWidth = width * 0.55;
  bold(doc, 14).text(seller.legal_name, PAGE.left, PAGE.top, { width: leftWidth });
  const sellerLines = [...addressLines(seller.address, false), seller.email];
  if (seller.phone) sellerLines.push(seller.phone);
  if (seller.vat_id) sellerLines.push(`VAT ID: ${seller.vat_id}`);
  if (seller.tax_number) sellerLines.push(`Tax number: ${seller.tax_number}`);
  body(doc, BODY_SIZE - 0.5, MUTED).text(sellerLines.join('\n'), { width: leftWidth });
  const leftBottom = doc.y;

  const rightX = PAGE.left + leftWidth + 10;
  const rightWidth = width - leftWidth - 10;
  bold(doc, 20).text(layout.title, rightX, PAGE.top, { width: rightWidth, align: 'right' });
  const facts: [string, string][] = [...layout.facts, ['Customer number', String(buyer.id)]];
  if (buyer.buyer_reference) facts.push(['Buyer reference', buyer.buyer_reference]);
  let y = doc.y + 6;
  for (const [label, value] of facts) {
    body(doc, BODY_SIZE, MUTED).text(label, rightX, y, { width: rightWidth * 0.45 });
    bold(doc).text(value, rightX + rightWidth * 0.45, y, { width: rightWidth * 0.55, align: 'right' });
    y = doc.y + 2;
  }
  return Math.max(leftBottom, y);
}

/** The buyer block under `caption` ("BILL TO"); returns the y below it. */
function drawBuyer(doc: Doc, buyer: DocumentBuyer, caption: string, y: number): number {
  const width = contentWidth(doc) * 0.55;
  bold(doc, BODY_SIZE - 1, MUTED).text(caption, PAGE.left, y, { width, characterSpacing: 0.5 });
  const name = buyer.address?.company ?? buyer.company ?? buyer.address?.name ?? buyer.name;
  bold(doc, BODY_SIZE + 1).text(name, { width });
  const lines: string[] = [];
  const contact = buyer.address?.name ?? buyer.name;
  if (contact !== name) lines.push(contact);
  if (buyer.address) lines.push(...addressLines(buyer.address, false));
  lines.push(buyer.email);
  if (buyer.vat_id) lines.push(`VAT ID: ${buyer.vat_id}`);
  body(doc).text(lines.join('\n'), { width });
  return doc.y;
}

/**
 * Why lines carry no VAT: the legal note of a reverse charge or an export, and each exempt line's
 * reason (its category and reason also go into the e-invoice, tax-category.ts).
 */
function taxNotes(content: Pick<SalesPdfContent, 'lines' | 'shipping' | 'shipping_tax_category'>): string | null {
  const categories = [...content.lines.map((line) => line.tax_category), ...(content.shipping > 0 ? [content.shipping_tax_category] : [])];
  const reasons = [
    ...new Set(content.lines.flatMap((line) => (line.tax_category === 'exempt' && line.exemption_reason ? [line.exemption_reason] : []))),
  ];
  const notes = [...legalNotes(categories), ...reasons.map((reason) => `VAT exempt: ${reason}`)];
  return notes.length ? notes.join('\n') : null;
}

function paymentText(invoice: InvoiceDocument): string {
  const { seller, currency } = invoice;
  if (invoice.amount_due <= 0) return 'This invoice has been paid in full. No payment is due.';
  const parts = [
    `Please pay ${money(invoice.amount_due, currency)} without deduction within ${seller.payment_terms_days} days, by ${invoice.due_date}.`,
  ];
  if (seller.iban) {
    const bank = [`Account holder: ${seller.legal_name}`, `IBAN: ${formatIban(seller.iban)}`];
    if (seller.bic) bank.push(`BIC: ${seller.bic}`);
    parts.push(bank.join(' · '));
  }
  parts.push(`Payment reference: ${invoice.invoice_number}`);
  return parts.join('\n');
}

/** A titled text block, moved to a new page first when it would not fit on this one. */
function drawBlock(doc: Doc, title: string, text: string, y: number, newPage: () => number): number {
  const width = contentWidth(doc);
  body(doc);
  const needed = doc.heightOfString(text, { width }) + 24;
  if (y + needed > contentBottom(doc) && needed < contentBottom(doc) - PAGE.top) y = newPage();
  bold(doc).text(title, PAGE.left, y, { width });
  body(doc).text(text, { width });
  return doc.y + 12;
}

/** A credit note (type 381): what it credits, against which invoice, and what happens to the money. */
function renderCreditNotePdf(note: InvoiceDocument, corrected: NonNullable<InvoiceDocument['preceding_invoice']>): Promise<Uint8Array> {
  const facts: [string, string][] = [
    ['Credit note number', note.invoice_number],
    ['Issue date', note.issue_date],
    ['Corrects invoice', corrected.number],
    ['Invoice date', corrected.issue_date],
    ['Service date', note.service_date],
  ];
  if (note.order_number) facts.push(['Order number', note.order_number]);
  const text =
    `This credit note credits ${money(note.total, note.currency)} against invoice ${corrected.number} of ${corrected.issue_date}. ` +
    'It reduces the amount due on that invoice; what was paid beyond the amount then owed is refunded.';
  return renderSalesPdf(note, {
    title: 'Credit note',
    name: `Credit note ${note.invoice_number}`,
    facts,
    buyerCaption: 'CREDIT TO',
    closing: { title: 'Credit', text },
  });
}

export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  if (invoice.preceding_invoice) return renderCreditNotePdf(invoice, invoice.preceding_invoice);
  const facts: [string, string][] = [
    ['Invoice number', invoice.invoice_number],
    ['Issue date', invoice.issue_date],
    ['Service date', invoice.service_date],
    ['Due date', invoice.due_date],
  ];
  if (invoice.order_number) facts.push(['Order number', invoice.order_number]);
  return renderSalesPdf(invoice, {
    title: 'Invoice',
    name: `Invoice ${invoice.invoice_number}`,
    facts,
    buyerCaption: 'BILL TO',
    closing: { title: 'Payment terms', text: paymentText(invoice) },
  });
}

/** Draws `content` as an invoice-style PDF (seller, facts, buyer, lines, totals, closing block, notes). */
export async function renderSalesPdf(content: SalesPdfContent, layout: SalesPdfLayout): Promise<Uint8Array> {
  const fonts = await invoiceFonts();
  const { seller, buyer } = content;
  // No default font: pdfkit would load Helvetica's metrics from files a bundle does not have.
  const doc = new PDFDocument({
    size: PAGE.size,
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    autoFirstPage: false,
    bufferPages: true,
    font: '',
    pdfVersion: '1.7',
    lang: 'en',
    displayTitle: true,
    info: {
      Title: layout.name,
      Author: seller.legal_name,
      Subject: `${layout.name} for ${buyer.company ?? buyer.name}`,
      Creator: 'Print Shop API',
    },
  });
  const finish = collectPdf(doc);

  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.font('regular');
  if (content.test_mode) watermarkEveryPage(doc);
  doc.addPage();

  const newPage = (): number => {
    doc.addPage();
    body(doc, BODY_SIZE, MUTED).text(`${layout.name} (continued)`, PAGE.left, PAGE.top, { width: contentWidth(doc) });
    return doc.y + 8;
  };

  let y = drawHeading(doc, content, layout);
  y = drawBuyer(doc, buyer, layout.buyerCaption, y + 24);
  y = drawTable(doc, tableRows(content), y + 24, newPage);

  const totals = totalLines(content);
  if (y + totalsHeight(doc, totals) > contentBottom(doc)) y = newPage();
  y = drawTotals(doc, totals, y + 8) + 14;
  const notes = taxNotes(content);
  if (notes) y = drawBlock(doc, 'VAT', notes, y, newPage);
  y = drawBlock(doc, layout.closing.title, layout.closing.text, y, newPage);
  if (content.notes) drawBlock(doc, 'Notes', content.notes, y, newPage);

  const footer = seller.footer ?? [seller.legal_name, seller.vat_id ?? seller.tax_number, seller.email].filter(Boolean).join(' · ');
  writeFooters(doc, footer, (page, pages) => `Page ${page} of ${pages}`);
  return finish();
}

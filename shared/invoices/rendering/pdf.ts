/**
 * The invoice as a PDF, drawn with pdfkit in an embedded TrueType font (fonts.ts), so names in any
 * Latin, Greek or Cyrillic script print as written. The PDF is also the visual part of the
 * Factur-X hybrid (e-invoice.ts), which is why it embeds every glyph it uses and nothing else.
 */
import PDFDocument from 'pdfkit';
import type { DocumentAddress, InvoiceDocument } from '#shared/invoices/document';
import { invoiceFonts } from './fonts';
import {
  BODY_SIZE,
  MUTED,
  PAGE,
  body,
  bold,
  contentBottom,
  contentWidth,
  money,
  watermarkEveryPage,
  writeFooters,
  type Doc,
} from './pdf-layout';
import { drawTable, drawTotals, tableRows, totalLines, totalsHeight } from './pdf-table';
import { taxCategory } from './tax-category';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code; // not a region code Intl knows: print it as stored
  }
}

function addressLines(address: DocumentAddress, includeName: boolean): string[] {
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

/** Seller block (left) and invoice facts (right); returns the y below the taller one. */
function drawHeading(doc: Doc, invoice: InvoiceDocument): number {
  const { seller } = invoice;
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
  bold(doc, 20).text('Invoice', rightX, PAGE.top, { width: rightWidth, align: 'right' });
  const facts: [string, string][] = [
    ['Invoice number', invoice.invoice_number],
    ['Issue date', invoice.issue_date],
    ['Service date', invoice.service_date],
    ['Due date', invoice.due_date],
  ];
  if (invoice.order_number) facts.push(['Order number', invoice.order_number]);
  facts.push(['Customer number', String(invoice.buyer.id)]);
  if (invoice.buyer.buyer_reference) facts.push(['Buyer reference', invoice.buyer.buyer_reference]);
  let y = doc.y + 6;
  for (const [label, value] of facts) {
    body(doc, BODY_SIZE, MUTED).text(label, rightX, y, { width: rightWidth * 0.45 });
    bold(doc).text(value, rightX + rightWidth * 0.45, y, { width: rightWidth * 0.55, align: 'right' });
    y = doc.y + 2;
  }
  return Math.max(leftBottom, y);
}

/** The buyer ("Bill to") block; returns the y below it. */
function drawBuyer(doc: Doc, invoice: InvoiceDocument, y: number): number {
  const { buyer } = invoice;
  const width = contentWidth(doc) * 0.55;
  bold(doc, BODY_SIZE - 1, MUTED).text('BILL TO', PAGE.left, y, { width, characterSpacing: 0.5 });
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

function exemptLabel(rate: number): string {
  return taxCategory(rate).code === 'E' ? `VAT ${rate} % (exempt)` : `VAT ${rate} %`;
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

export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const fonts = await invoiceFonts();
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
      Title: `Invoice ${invoice.invoice_number}`,
      Author: invoice.seller.legal_name,
      Subject: `Invoice ${invoice.invoice_number} for ${invoice.buyer.company ?? invoice.buyer.name}`,
      Creator: 'Print Shop API',
    },
  });
  const chunks: Uint8Array[] = [];
  doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.font('regular');
  if (invoice.test_mode) watermarkEveryPage(doc);
  doc.addPage();

  const newPage = (): number => {
    doc.addPage();
    body(doc, BODY_SIZE, MUTED).text(`Invoice ${invoice.invoice_number} (continued)`, PAGE.left, PAGE.top, { width: contentWidth(doc) });
    return doc.y + 8;
  };

  let y = drawHeading(doc, invoice);
  y = drawBuyer(doc, invoice, y + 24);
  y = drawTable(doc, tableRows(invoice), y + 24, newPage);

  const totals = totalLines(invoice, exemptLabel);
  if (y + totalsHeight(doc, totals) > contentBottom(doc)) y = newPage();
  y = drawTotals(doc, totals, y + 8) + 14;
  y = drawBlock(doc, 'Payment terms', paymentText(invoice), y, newPage);
  if (invoice.notes) drawBlock(doc, 'Notes', invoice.notes, y, newPage);

  const footer =
    invoice.seller.footer ??
    [invoice.seller.legal_name, invoice.seller.vat_id ?? invoice.seller.tax_number, invoice.seller.email].filter(Boolean).join(' · ');
  writeFooters(doc, footer, (page, pages) => `Page ${page} of ${pages}`);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

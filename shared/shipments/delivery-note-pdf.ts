/**
 * A shipment's delivery note as a PDF, drawn with the invoices' document helpers (fonts, page
 * furniture, address lines): the shop's company block, the order number and shipment, the
 * recipient, what the shipment carries (line, description, quantity) and, for a shipment leaving
 * the EU customs area, each line's HS code and origin with the customs facts. White-label: the
 * shop's name only — no carrier, no platform — in the page and in the PDF's metadata. Loaded on
 * first need only (delivery-note.ts imports it dynamically).
 */
import PDFDocument from 'pdfkit';
import type { DocumentAddress } from '#shared/invoices/document';
import { invoiceFonts } from '#shared/invoices/rendering/fonts';
import { addressLines } from '#shared/invoices/rendering/pdf';
import {
  BODY_SIZE,
  MUTED,
  PAGE,
  RULE,
  body,
  bold,
  collectPdf,
  contentBottom,
  contentWidth,
  rule,
  watermarkEveryPage,
  writeFooters,
  type Doc,
} from '#shared/invoices/rendering/pdf-layout';

export interface DeliveryNoteLine {
  line_id: number;
  description: string;
  quantity: number;
  /** Outside the EU customs area. */
  hs_code: string | null;
  origin_country: string | null;
}

export interface DeliveryNote {
  test_mode: boolean;
  company: { legal_name: string; address: DocumentAddress; email: string | null; phone: string | null };
  order_number: string;
  shipment_id: number;
  /** YYYY-MM-DD. */
  date: string;
  parcels: number;
  tracking_number: string | null;
  recipient: DocumentAddress;
  lines: DeliveryNoteLine[];
  /** The customs facts, when the shipment leaves the EU customs area. */
  customs: { invoice_number: string; export_reason: string } | null;
  /** Free text at the foot of every page (the company's invoice footer), else its name and email. */
  footer: string | null;
}

const PADDING = 4;

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
  cell: (line: DeliveryNoteLine) => string;
}

function columns(doc: Doc, customs: boolean): Column[] {
  const fixed: Column[] = [
    { title: 'Pos.', width: 34, align: 'left', cell: (line) => String(line.line_id) },
    { title: 'Description', width: 0, align: 'left', cell: (line) => line.description },
    ...(customs
      ? ([
          { title: 'HS code', width: 70, align: 'left', cell: (line) => line.hs_code ?? '' },
          { title: 'Origin', width: 44, align: 'left', cell: (line) => line.origin_country ?? '' },
        ] satisfies Column[])
      : []),
    { title: 'Quantity', width: 64, align: 'right', cell: (line) => String(line.quantity) },
  ];
  const used = fixed.reduce((sum, column) => sum + column.width, 0);
  return fixed.map((column) => (column.title === 'Description' ? { ...column, width: contentWidth(doc) - used } : column));
}

function drawRow(doc: Doc, cells: Column[], text: (column: Column) => string, y: number): void {
  let x = PAGE.left;
  for (const column of cells) {
    doc.text(text(column), x + PADDING, y, { width: column.width - 2 * PADDING, align: column.align });
    x += column.width;
  }
}

function drawHeader(doc: Doc, cells: Column[], y: number): number {
  bold(doc, BODY_SIZE - 0.5);
  const height = doc.heightOfString('Description') + 2 * PADDING;
  doc.rect(PAGE.left, y, contentWidth(doc), height).fillColor('#eeeeee').fill();
  bold(doc, BODY_SIZE - 0.5);
  drawRow(doc, cells, (column) => column.title, y + PADDING);
  return y + height + 2;
}

export async function renderDeliveryNotePdf(note: DeliveryNote): Promise<Uint8Array> {
  const fonts = await invoiceFonts();
  const name = `Delivery note ${note.order_number}`;
  const doc = new PDFDocument({
    size: PAGE.size,
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    autoFirstPage: false,
    bufferPages: true,
    font: '',
    pdfVersion: '1.7',
    lang: 'en',
    displayTitle: true,
    // White-label: the shop is the author and the creator; nothing names a carrier or this platform.
    info: { Title: name, Author: note.company.legal_name, Creator: note.company.legal_name, Producer: note.company.legal_name },
  });
  const finish = collectPdf(doc);
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.font('regular');
  if (note.test_mode) watermarkEveryPage(doc);
  doc.addPage();
  const newPage = (): number => {
    doc.addPage();
    body(doc, BODY_SIZE, MUTED).text(`${name} (continued)`, PAGE.left, PAGE.top, { width: contentWidth(doc) });
    return doc.y + 8;
  };

  // The shop (left) and the note's facts (right).
  const width = contentWidth(doc);
  const leftWidth = width * 0.55;
  bold(doc, 14).text(note.company.legal_name, PAGE.left, PAGE.top, { width: leftWidth });
  const contact = [...addressLines(note.company.address, false), note.company.email, note.company.phone].filter((line): line is string =>
    Boolean(line),
  );
  body(doc, BODY_SIZE - 0.5, MUTED).text(contact.join('\n'), { width: leftWidth });
  const leftBottom = doc.y;
  const rightX = PAGE.left + leftWidth + 10;
  const rightWidth = width - leftWidth - 10;
  bold(doc, 18).text('Delivery note', rightX, PAGE.top, { width: rightWidth, align: 'right' });
  const facts: [string, string][] = [
    ['Order number', note.order_number],
    ['Shipment', String(note.shipment_id)],
    ['Date', note.date],
    ['Parcels', String(note.parcels)],
    ...(note.tracking_number ? ([['Tracking number', note.tracking_number]] as [string, string][]) : []),
  ];
  let y = doc.y + 6;
  for (const [label, value] of facts) {
    body(doc, BODY_SIZE, MUTED).text(label, rightX, y, { width: rightWidth * 0.45 });
    bold(doc).text(value, rightX + rightWidth * 0.45, y, { width: rightWidth * 0.55, align: 'right' });
    y = doc.y + 2;
  }
  y = Math.max(leftBottom, y) + 24;

  // The recipient.
  bold(doc, BODY_SIZE - 1, MUTED).text('DELIVER TO', PAGE.left, y, { width: leftWidth, characterSpacing: 0.5 });
  bold(doc, BODY_SIZE + 1).text(note.recipient.company ?? note.recipient.name, { width: leftWidth });
  const recipient = addressLines(note.recipient, false);
  if (note.recipient.company && note.recipient.name !== note.recipient.company) recipient.unshift(note.recipient.name);
  body(doc).text(recipient.join('\n'), { width: leftWidth });
  y = doc.y + 24;

  // What the shipment carries.
  const cells = columns(doc, note.customs !== null);
  y = drawHeader(doc, cells, y);
  const description = cells.find((column) => column.title === 'Description')!;
  for (const line of note.lines) {
    body(doc);
    const height = doc.heightOfString(line.description, { width: description.width - 2 * PADDING }) + 2 * PADDING;
    if (y + height > contentBottom(doc)) y = drawHeader(doc, cells, newPage());
    body(doc);
    drawRow(doc, cells, (column) => column.cell(line), y + PADDING);
    y += height;
    rule(doc, y, '#dddddd');
  }
  rule(doc, y, RULE);
  y += 14;

  if (note.customs) {
    const text =
      `This shipment leaves the EU customs area. Customs invoice: ${note.customs.invoice_number}. ` +
      `Reason for export: ${note.customs.export_reason.replace(/_/g, ' ')}. HS codes and countries of origin per line as above.`;
    body(doc);
    if (y + doc.heightOfString(text, { width }) + 24 > contentBottom(doc)) y = newPage();
    bold(doc).text('Customs', PAGE.left, y, { width });
    body(doc).text(text, { width });
  }

  const footer = note.footer ?? [note.company.legal_name, note.company.email].filter(Boolean).join(' · ');
  writeFooters(doc, footer, (page, pages) => `Page ${page} of ${pages}`);
  return finish();
}

/**
 * The sandbox carrier's label: a real A6 PDF that looks like a shipping label — sender, recipient,
 * service, tracking number with a barcode-like strip — and says SPECIMEN across it, so nobody
 * mistakes it for postage. Loaded on first need only (carriers/sandbox.ts imports it dynamically).
 */
import PDFDocument from 'pdfkit';
import { invoiceFonts } from '#shared/invoices/rendering/fonts';
import { collectPdf } from '#shared/invoices/rendering/pdf-layout';
import type { LabelAddress } from './carriers/carrier';

export interface SpecimenLabel {
  tracking_number: string;
  service: string;
  order_number: string;
  parcel: number;
  parcels: number;
  to: LabelAddress;
  from: LabelAddress | null;
}

const A6: [number, number] = [297.64, 419.53];

const lines = (address: LabelAddress): string[] =>
  [
    address.name,
    address.company,
    address.line1,
    address.line2,
    `${address.postal_code} ${address.city}`,
    address.region,
    address.country,
  ].filter((line): line is string => Boolean(line));

/** A deterministic strip of bars from the tracking number (decoration, not a real symbology). */
function bars(doc: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, height: number): void {
  const codes = [...text].flatMap((char) => {
    const code = char.charCodeAt(0);
    return [1 + (code % 3), 1 + ((code >> 2) % 2), 1 + ((code >> 3) % 3), 1];
  });
  const unit = width / codes.reduce((sum, value) => sum + value, 0);
  let at = x;
  codes.forEach((value, index) => {
    if (index % 2 === 0) doc.rect(at, y, value * unit, height).fill('#000000');
    at += value * unit;
  });
}

export async function renderSpecimenLabel(label: SpecimenLabel): Promise<Uint8Array> {
  const fonts = await invoiceFonts();
  const doc = new PDFDocument({
    size: A6,
    margin: 16,
    font: '',
    info: { Title: `SPECIMEN label ${label.tracking_number}`, Creator: 'Print Shop API (sandbox carrier)' },
  });
  const finish = collectPdf(doc);
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const [width, height] = A6;

  doc.save();
  doc.rotate(-55, { origin: [width / 2, height / 2] });
  doc.font('bold').fontSize(54).fillColor('#d0021b').fillOpacity(0.25);
  doc.text('SPECIMEN', 0, height / 2 - 30, { width, align: 'center' });
  doc.restore();
  doc.fillOpacity(1).fillColor('#000000');

  doc.font('bold').fontSize(11).text('SANDBOX CARRIER — NOT POSTAGE', 16, 16);
  doc.font('regular').fontSize(8).text(`${label.service} · parcel ${label.parcel} of ${label.parcels} · ${label.order_number}`);
  doc.moveDown(0.8);
  if (label.from) {
    doc.font('bold').fontSize(7).text('FROM');
    doc.font('regular').fontSize(8).text(lines(label.from).join('\n'));
    doc.moveDown(0.8);
  }
  doc.font('bold').fontSize(8).text('TO');
  doc.font('bold').fontSize(12).text(lines(label.to).join('\n'));
  bars(doc, label.tracking_number, 16, height - 110, width - 32, 56);
  doc
    .fillColor('#000000')
    .font('regular')
    .fontSize(10)
    .text(label.tracking_number, 16, height - 48, { width: width - 32, align: 'center' });
  doc
    .font('bold')
    .fontSize(8)
    .text('SPECIMEN', 16, height - 30, { width: width - 32, align: 'center' });
  return finish();
}

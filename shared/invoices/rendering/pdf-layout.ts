/**
 * The page furniture of the invoice PDF: geometry, type styles, page breaks (with the TEST
 * watermark drawn first on every page, under the content), and footers with page numbers, which
 * need the page count and are therefore written last into the buffered pages.
 */
// The PDFKit namespace (pdfkit's types) is declared by the module's typings: load them here too.
import type {} from 'pdfkit';
import { formatMinor } from '#shared/money';

export type Doc = PDFKit.PDFDocument;

export const PAGE = { size: 'A4' as const, left: 50, right: 50, top: 50, bottom: 72 };
export const TEXT = '#1a1a1a';
export const MUTED = '#666666';
export const RULE = '#b8b8b8';
export const BODY_SIZE = 9;

/**
 * Collects what `doc` writes from now on; the answer ends the document and resolves to its bytes
 * (every renderer starts the same way: invoices, quotes' shared layout, labels, delivery notes).
 */
export function collectPdf(doc: Doc): () => Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  return async () => {
    doc.end();
    await ended;
    return Buffer.concat(chunks);
  };
}

export function contentWidth(doc: Doc): number {
  return doc.page.width - PAGE.left - PAGE.right;
}

/** The lowest y content may reach; the footer lives below it. */
export function contentBottom(doc: Doc): number {
  return doc.page.height - PAGE.bottom;
}

export function body(doc: Doc, size = BODY_SIZE, color = TEXT): Doc {
  return doc.font('regular').fontSize(size).fillColor(color).fillOpacity(1);
}

export function bold(doc: Doc, size = BODY_SIZE, color = TEXT): Doc {
  return doc.font('bold').fontSize(size).fillColor(color).fillOpacity(1);
}

/** 123456 → "1234.56 EUR". */
export function money(minor: number, currency: string): string {
  return `${formatMinor(minor)} ${currency}`;
}

/** A horizontal rule across the content width. */
export function rule(doc: Doc, y: number, color = RULE): void {
  doc
    .moveTo(PAGE.left, y)
    .lineTo(PAGE.left + contentWidth(doc), y)
    .lineWidth(0.6)
    .strokeColor(color)
    .stroke();
}

/**
 * Draws the diagonal TEST mark whenever a page starts (pdfkit's own overflow breaks included),
 * so it lies under everything drawn afterwards. pdfkit writes its current font into every text
 * object, so the body style is restored afterwards instead of relying on save/restore alone.
 */
export function watermarkEveryPage(doc: Doc): void {
  doc.on('pageAdded', () => {
    const { width, height } = doc.page;
    const size = 160;
    doc.save();
    doc.rotate(-40, { origin: [width / 2, height / 2] });
    bold(doc, size, '#c62828').fillOpacity(0.14);
    const textWidth = doc.widthOfString('TEST');
    doc.text('TEST', (width - textWidth) / 2, height / 2 - size * 0.7, { lineBreak: false });
    doc.restore();
    body(doc);
    doc.x = PAGE.left;
    doc.y = PAGE.top;
  });
}

/**
 * Footer text and "Page i of n" on every page. The bottom margin is lifted while writing, or
 * pdfkit would treat text below it as overflow and start a new page.
 */
export function writeFooters(doc: Doc, footer: string, pageLabel: (page: number, pages: number) => string): void {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    const margins = doc.page.margins;
    const bottom = margins.bottom;
    margins.bottom = 0;
    const y = doc.page.height - PAGE.bottom + 22;
    const width = contentWidth(doc);
    doc
      .moveTo(PAGE.left, y - 6)
      .lineTo(PAGE.left + width, y - 6)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    body(doc, 7, MUTED).text(footer, PAGE.left, y, { width: width - 70, height: 30, ellipsis: true });
    body(doc, 7, MUTED).text(pageLabel(index - start + 1, count), PAGE.left + width - 65, y, { width: 65, align: 'right' });
    margins.bottom = bottom;
  }
}

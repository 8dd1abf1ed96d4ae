/**
 * The line table of the invoice and quote PDFs: one row per line plus the shipping row, page breaks
 * between rows (never inside one), and the column header repeated at the top of every page.
 */
import type { InvoiceDocument } from '#shared/invoices/document';
import type { AppliedTaxCategory } from '#shared/tax/categories';
import { lineAdjustment } from './line-adjustment';
import { BODY_SIZE, MUTED, PAGE, RULE, TEXT, body, bold, contentBottom, contentWidth, money, rule, type Doc } from './pdf-layout';

interface Row {
  position: string;
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string;
  amount: string;
}

interface Column {
  key: keyof Row;
  title: string;
  width: number;
  align: 'left' | 'right';
}

const PADDING = 4;

/** Fixed columns; the description takes what is left of the content width. */
function columns(doc: Doc): Column[] {
  const fixed: Column[] = [
    { key: 'position', title: 'Pos.', width: 30, align: 'left' },
    { key: 'description', title: 'Description', width: 0, align: 'left' },
    { key: 'quantity', title: 'Qty', width: 48, align: 'right' },
    { key: 'unitPrice', title: 'Unit price', width: 78, align: 'right' },
    { key: 'taxRate', title: 'Tax', width: 56, align: 'right' },
    { key: 'amount', title: 'Amount', width: 88, align: 'right' },
  ];
  const used = fixed.reduce((sum, column) => sum + column.width, 0);
  return fixed.map((column) => (column.key === 'description' ? { ...column, width: contentWidth(doc) - used } : column));
}

/** Says why an amount is not quantity × unit price (the setup fee of an order line). */
function withAdjustment(description: string, adjustment: number, currency: string): string {
  if (adjustment > 0) return `${description}\nincl. setup fee ${money(adjustment, currency)}`;
  if (adjustment < 0) return `${description}\nincl. discount ${money(-adjustment, currency)}`;
  return description;
}

/** What the table needs: an invoice or a quote (shared/invoices/rendering/quote-pdf.ts). */
export type TableSource = Pick<InvoiceDocument, 'currency' | 'lines' | 'shipping' | 'shipping_tax_category' | 'shipping_tax_rate'>;

/** A line's rate and, unless standard, its category in short (the totals name it in full). */
const SHORT: Record<AppliedTaxCategory, string> = {
  standard: '',
  reduced: ' red.',
  zero: ' zero',
  exempt: ' ex.',
  reverse_charge: ' RC',
  export: ' exp.',
};
const taxCell = (category: AppliedTaxCategory, rate: number): string => `${rate} %${SHORT[category]}`;

/** A breakdown group's label in the totals: the rate and, for a category charging no VAT, why. */
const GROUP_LABEL: Record<AppliedTaxCategory, string> = {
  standard: '',
  reduced: '',
  zero: ' (zero-rated)',
  exempt: ' (exempt)',
  reverse_charge: ' (reverse charge)',
  export: ' (export)',
};
export const groupLabel = (category: AppliedTaxCategory, rate: number): string => `VAT ${rate} %${GROUP_LABEL[category]}`;

/** What the totals need; a quote has nothing paid, so no paid/due lines. */
export type TotalsSource = Pick<InvoiceDocument, 'currency' | 'subtotal' | 'tax_breakdown' | 'total'> &
  Partial<Pick<InvoiceDocument, 'amount_paid' | 'amount_due'>>;

export function tableRows(invoice: TableSource): Row[] {
  const { currency } = invoice;
  const rows: Row[] = invoice.lines.map((line) => ({
    position: String(line.position),
    description: withAdjustment(line.description, lineAdjustment(line), currency),
    quantity: String(line.quantity),
    unitPrice: money(line.unit_price, currency),
    taxRate: taxCell(line.tax_category, line.tax_rate),
    amount: money(line.net_amount, currency),
  }));
  if (invoice.shipping > 0) {
    rows.push({
      position: '',
      description: 'Shipping',
      quantity: '1',
      unitPrice: money(invoice.shipping, currency),
      taxRate: taxCell(invoice.shipping_tax_category, invoice.shipping_tax_rate),
      amount: money(invoice.shipping, currency),
    });
  }
  return rows;
}

function drawCells(doc: Doc, row: Row, y: number): void {
  let x = PAGE.left;
  for (const column of columns(doc)) {
    doc.text(row[column.key], x + PADDING, y, { width: column.width - 2 * PADDING, align: column.align });
    x += column.width;
  }
}

function rowHeight(doc: Doc, row: Row): number {
  const description = columns(doc).find((column) => column.key === 'description')!;
  body(doc);
  return doc.heightOfString(row.description, { width: description.width - 2 * PADDING }) + 2 * PADDING;
}

/** The column titles at `y`; returns the y below them. */
function drawHeader(doc: Doc, y: number): number {
  const titles = Object.fromEntries(columns(doc).map((column) => [column.key, column.title])) as unknown as Row;
  bold(doc, BODY_SIZE - 0.5, TEXT);
  const height = doc.heightOfString('Description') + 2 * PADDING;
  doc.rect(PAGE.left, y, contentWidth(doc), height).fillColor('#eeeeee').fill();
  bold(doc, BODY_SIZE - 0.5, TEXT);
  drawCells(doc, titles, y + PADDING);
  return y + height + 2;
}

/**
 * Draws the table from `y`, breaking pages between rows through `newPage`, which returns where
 * the next page's content starts. Returns the y below the table.
 */
export function drawTable(doc: Doc, rows: Row[], y: number, newPage: () => number): number {
  y = drawHeader(doc, y);
  for (const row of rows) {
    const height = rowHeight(doc, row);
    if (y + height > contentBottom(doc)) y = drawHeader(doc, newPage());
    body(doc);
    drawCells(doc, row, y + PADDING);
    y += height;
    rule(doc, y, '#dddddd');
  }
  rule(doc, y, RULE);
  return y;
}

export interface TotalLine {
  label: string;
  value: string;
  strong?: boolean;
}

export function totalLines(invoice: TotalsSource): TotalLine[] {
  const { currency } = invoice;
  const lines: TotalLine[] = [{ label: 'Subtotal (net)', value: money(invoice.subtotal, currency) }];
  for (const group of invoice.tax_breakdown) {
    lines.push({
      label: `${groupLabel(group.category, group.tax_rate)} of ${money(group.taxable_amount, currency)}`,
      value: money(group.tax_amount, currency),
    });
  }
  lines.push({ label: 'Total', value: money(invoice.total, currency), strong: true });
  const paid = invoice.amount_paid ?? 0;
  if (paid > 0) {
    lines.push({ label: 'Amount paid', value: `−${money(paid, currency)}` });
    lines.push({ label: 'Amount due', value: money(invoice.amount_due ?? invoice.total - paid, currency), strong: true });
  }
  return lines;
}

/** Right-aligned label/value pairs; returns the y below them. */
export function drawTotals(doc: Doc, lines: TotalLine[], y: number): number {
  const valueWidth = 100;
  const labelWidth = 220;
  const valueX = PAGE.left + contentWidth(doc) - valueWidth;
  const labelX = valueX - labelWidth;
  for (const line of lines) {
    if (line.strong) rule(doc, y - 1, RULE);
    (line.strong ? bold : body)(doc, line.strong ? BODY_SIZE + 1 : BODY_SIZE, line.strong ? TEXT : MUTED);
    doc.text(line.label, labelX, y + 2, { width: labelWidth - 8, align: 'right' });
    (line.strong ? bold : body)(doc, line.strong ? BODY_SIZE + 1 : BODY_SIZE);
    doc.text(line.value, valueX, y + 2, { width: valueWidth - PADDING, align: 'right' });
    y += doc.currentLineHeight(true) + 5;
  }
  return y;
}

export function totalsHeight(doc: Doc, lines: TotalLine[]): number {
  body(doc, BODY_SIZE + 1);
  return lines.length * (doc.currentLineHeight(true) + 5) + 10;
}

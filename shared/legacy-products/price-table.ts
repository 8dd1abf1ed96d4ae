/**
 * A legacy product's price table: rows of (format, color, quantity, pages) → price. Everything
 * here is pure: CSV rows are checked completely (every line, duplicates included) before any
 * write, and the option lists a product shows are derived from the rows.
 */
import type { ErrorDetail } from '#shared/errors';
import { MAX_ERROR_DETAILS, moreDetails, ValidationError } from '#shared/errors';
import { MAX_AMOUNT } from '#shared/money';
import { textProblem } from '#shared/schemas/text';
import { parseCsv } from './csv';

export const MAX_PRICE_ROWS = 100_000;
/**
 * The largest CSV body an import takes: 100,000 rows of up to ~50 bytes. A Lambda function is
 * invoked with at most 6 MB (body, headers and the rest of the event together), so a larger body
 * could not reach the handler on AWS anyway; above this the answer is a 413, before any parsing.
 */
export const MAX_CSV_BYTES = 5 * 1024 * 1024;
export const MAX_QUANTITY = 10_000_000;
export const MAX_PAGES = 100_000;
export const MAX_VALUE_LENGTH = 100;

export const CSV_COLUMNS = ['format', 'color', 'quantity', 'pages', 'price'] as const;

export interface PriceCell {
  format: string;
  color: string;
  quantity: number;
  pages: number;
}

export interface PriceRow extends PriceCell {
  /** Minor units. */
  price: number;
}

export interface TableShape {
  /** In order of first appearance (the shop's order). */
  formats: string[];
  colors: string[];
  /** Ascending. */
  quantities: number[];
  pages: number[];
}

const cellKey = (cell: PriceCell): string => `${cell.format}\u0000${cell.color}\u0000${cell.quantity}\u0000${cell.pages}`;

/** Duplicate cells, named by `where(index)` ("line 12", "prices.3"). */
export function duplicateProblems(rows: readonly PriceCell[], where: (index: number) => string): ErrorDetail[] {
  const first = new Map<string, number>();
  const problems: ErrorDetail[] = [];
  rows.forEach((row, index) => {
    const key = cellKey(row);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, index);
    else problems.push({ field: where(index), message: `duplicates ${where(seen)} (same format, color, quantity and pages)` });
  });
  return problems;
}

export function tableShape(rows: readonly PriceCell[]): TableShape {
  const formats = new Set<string>();
  const colors = new Set<string>();
  const quantities = new Set<number>();
  const pages = new Set<number>();
  for (const row of rows) {
    formats.add(row.format);
    colors.add(row.color);
    quantities.add(row.quantity);
    pages.add(row.pages);
  }
  const ascending = (a: number, b: number) => a - b;
  return { formats: [...formats], colors: [...colors], quantities: [...quantities].sort(ascending), pages: [...pages].sort(ascending) };
}

function text(value: string, name: string, problems: string[]): string {
  const trimmed = value.trim();
  const problem = textProblem(trimmed);
  if (trimmed === '') problems.push(`${name} must not be empty`);
  else if (trimmed.length > MAX_VALUE_LENGTH) problems.push(`${name} must be at most ${MAX_VALUE_LENGTH} characters`);
  else if (problem) problems.push(`${name} ${problem}`);
  return trimmed;
}

function integer(value: string, name: string, max: number, problems: string[]): number {
  const trimmed = value.trim();
  const parsed = /^\d{1,12}$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!(parsed >= 1 && parsed <= max)) problems.push(`${name} must be a whole number from 1 to ${max} (got "${trimmed.slice(0, 20)}")`);
  return parsed;
}

/** "12.5" → 1250 without floating point; at most 2 decimals, a dot as separator. */
function price(value: string, problems: string[]): number {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value.trim());
  const minor = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : NaN;
  if (!(minor >= 0 && minor <= MAX_AMOUNT * 100)) {
    problems.push(`price must be an amount from 0 to ${MAX_AMOUNT} with at most 2 decimals and a dot (got "${value.trim().slice(0, 20)}")`);
  }
  return minor;
}

/** Reads and checks a whole CSV price table; throws a 422 naming lines, having written nothing. */
export function rowsFromCsv(csv: string): PriceRow[] {
  // The header, at most MAX_PRICE_ROWS rows, and one more to know there are too many: no further.
  const parsed = parseCsv(csv, MAX_PRICE_ROWS + 2);
  if (!parsed.ok) throw new ValidationError('The CSV cannot be read', [{ field: `line ${parsed.line}`, message: parsed.message }]);
  const [header, ...records] = parsed.records;
  const names = (header?.fields ?? []).map((name) => name.trim().toLowerCase());
  const columns = CSV_COLUMNS.map((column) => names.indexOf(column));
  if (!header || names.length !== CSV_COLUMNS.length || columns.some((index) => index < 0)) {
    throw new ValidationError('The CSV needs a header line', [
      { field: `line ${header?.line ?? 1}`, message: `the first line must name the columns ${CSV_COLUMNS.join(',')} (any order)` },
    ]);
  }
  if (records.length === 0)
    throw new ValidationError('The CSV holds no prices', [{ field: 'line 2', message: 'at least one price row is required' }]);
  if (records.length > MAX_PRICE_ROWS) {
    throw new ValidationError('The CSV holds too many prices', [
      { field: `line ${records[MAX_PRICE_ROWS]!.line}`, message: `at most ${MAX_PRICE_ROWS} price rows are accepted` },
    ]);
  }

  const [f, c, q, p, pr] = columns as [number, number, number, number, number];
  const rows: PriceRow[] = [];
  const details: ErrorDetail[] = [];
  for (const record of records) {
    const problems: string[] = [];
    if (record.fields.length !== CSV_COLUMNS.length) {
      problems.push(`expected ${CSV_COLUMNS.length} fields, found ${record.fields.length}`);
    } else {
      rows.push({
        format: text(record.fields[f]!, 'format', problems),
        color: text(record.fields[c]!, 'color', problems),
        quantity: integer(record.fields[q]!, 'quantity', MAX_QUANTITY, problems),
        pages: integer(record.fields[p]!, 'pages', MAX_PAGES, problems),
        price: price(record.fields[pr]!, problems),
      });
    }
    for (const message of problems) details.push({ field: `line ${record.line}`, message });
  }
  if (details.length === 0) {
    details.push(...duplicateProblems(rows, (index) => `line ${records[index]!.line}`));
  }
  if (details.length) {
    // At most MAX_ERROR_DETAILS details: a wholly wrong file would otherwise answer megabytes.
    const shown = details.slice(0, MAX_ERROR_DETAILS);
    const more = details.length > shown.length ? moreDetails(details.length, shown.length) : '';
    throw new ValidationError(`The CSV has errors; nothing was stored${more}`, shown);
  }
  return rows;
}

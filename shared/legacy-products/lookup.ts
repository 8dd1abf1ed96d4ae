/**
 * Why a lookup has no price, in terms a client can act on: the field that failed and its valid
 * values. Pure. Quantities and pages are never interpolated: a value between two listed ones is
 * answered with the nearest valid ones.
 */
import type { ErrorDetail } from '#shared/errors';
import type { PriceCell, TableShape } from './price-table';

const list = (values: readonly (string | number)[]): string => values.join(', ');

function nearest(values: readonly number[], wanted: number): number[] {
  const below = values.filter((value) => value < wanted).at(-1);
  const above = values.find((value) => value > wanted);
  return [below, above].filter((value): value is number => value !== undefined);
}

function numberProblem(field: 'quantity' | 'pages', wanted: number, valid: readonly number[], context = ''): ErrorDetail {
  const near = nearest(valid, wanted);
  const plural = field === 'quantity' ? 'quantities' : 'pages';
  return {
    field,
    message: `No price for ${field} ${wanted}${context} (${plural} are not interpolated); nearest valid ${plural}: ${list(near)}; all valid ${plural}: ${list(valid)}`,
  };
}

/** Checks each field against the product's option lists (no read needed). */
export function cellProblems(shape: TableShape, cell: PriceCell): ErrorDetail[] {
  if (shape.formats.length === 0) return [{ field: 'id', message: 'This product has no price table yet' }];
  const problems: ErrorDetail[] = [];
  if (!shape.formats.includes(cell.format))
    problems.push({ field: 'format', message: `Unknown format "${cell.format}"; valid formats: ${list(shape.formats)}` });
  if (!shape.colors.includes(cell.color))
    problems.push({ field: 'color', message: `Unknown color "${cell.color}"; valid colors: ${list(shape.colors)}` });
  if (!shape.quantities.includes(cell.quantity)) problems.push(numberProblem('quantity', cell.quantity, shape.quantities));
  if (!shape.pages.includes(cell.pages)) problems.push(numberProblem('pages', cell.pages, shape.pages));
  return problems;
}

/**
 * Every value is listed but the table has no price for the combination (a sparse table): names
 * the field to change, with the values priced for the others. `priced` are the cells of the
 * requested format and color.
 */
export function missingCellProblem(cell: PriceCell, priced: readonly { quantity: number; pages: number }[]): ErrorDetail {
  const unique = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
  if (priced.length === 0) return { field: 'color', message: `No prices for color "${cell.color}" with format "${cell.format}"` };
  const pagesForQuantity = unique(priced.filter((p) => p.quantity === cell.quantity).map((p) => p.pages));
  if (pagesForQuantity.length)
    return numberProblem('pages', cell.pages, pagesForQuantity, ` with ${cell.format}, ${cell.color}, quantity ${cell.quantity}`);
  const quantitiesForPages = unique(priced.filter((p) => p.pages === cell.pages).map((p) => p.quantity));
  const quantities = quantitiesForPages.length ? quantitiesForPages : unique(priced.map((p) => p.quantity));
  return numberProblem('quantity', cell.quantity, quantities, ` with ${cell.format}, ${cell.color}`);
}

/**
 * Preflight: the print checks of a file, as pure functions of its type and bytes (the worker,
 * functions/files/preflight.ts, reads the object and records the result — docs/files.md#preflight).
 *
 * - PDF: unreadable or without pages → `failed`; encrypted → `failed` (a print shop cannot
 *   impose or edit it); pages of more than one size (the TrimBox when a page has one, else the
 *   MediaBox; 1 mm tolerance) → warning. The page count and each page's size (at most the first
 *   500) are recorded.
 * - PNG, JPEG, TIFF: unreadable header → `failed`; the pixel size is recorded with the
 *   resolution the file states; under 300 dpi → warning (with the size it prints at); no resolution
 *   stated → warning (saying so, with the size at 300 dpi).
 * - SVG, PostScript/EPS, ZIP: `skipped` — no print check applies (vector artwork has no resolution
 *   and pages are not read from PostScript; an archive is not opened), said by a check.
 * The status is `failed` when a check failed, else `warnings` when one warned, else `passed`.
 */
import type { FileType } from '#shared/files/detect';
import type { Preflight } from '#shared/files/stored';
import { count, MAX_CHECK_MESSAGE_LENGTH, PdfLimitError } from './bounds';
import { imageReaders, ImageHeaderError, type CheckedImageType, type ImageFacts } from './images';
import { pdfFacts, PdfReadError, type PdfPageSize } from './pdf';

type Check = Preflight['checks'][number];

/** The resolution print needs; below it an image is flagged. */
export const MIN_PRINT_DPI = 300;
/** Pages listed in `page_sizes` at most (the count and the size check cover every page). */
export const MAX_LISTED_PAGES = 500;
/** Page sizes closer than this (mm, on each side) are the same size. */
export const PAGE_SIZE_TOLERANCE_MM = 1;
/** Sizes a mixed-size warning names at most (the most common ones, when there are more). */
export const MAX_NAMED_SIZES = 5;

const TYPE_NAMES: Record<FileType, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/tiff': 'TIFF',
  'image/svg+xml': 'SVG',
  'application/postscript': 'PostScript',
  'application/zip': 'ZIP',
};

/** The types preflight reads; the others are `skipped` without reading the object. */
export const isChecked = (type: FileType): boolean => type === 'application/pdf' || type in imageReaders;

const empty = (): Omit<Preflight, 'status' | 'checks' | 'checked_at'> => ({
  pages: null,
  page_sizes: [],
  encrypted: null,
  width_px: null,
  height_px: null,
  dpi: null,
});

/** `failed` when a check failed, else `warnings` when one warned, else `passed`. */
export function statusOf(checks: readonly Check[]): Preflight['status'] {
  if (checks.some((check) => check.result === 'failed')) return 'failed';
  if (checks.some((check) => check.result === 'warning')) return 'warnings';
  return 'passed';
}

const format = (value: number) => String(Math.round(value * 10) / 10);
const sizeText = (width: number, height: number) => `${format(width)} × ${format(height)} mm`;

/** The size a page is cut to: its TrimBox when it has one, else its MediaBox. */
const finalSize = (page: PdfPageSize): [number, number] => [page.trim_width_mm ?? page.width_mm, page.trim_height_mm ?? page.height_mm];

export interface SizeGroup {
  width: number;
  height: number;
  pages: number;
}

/**
 * The distinct page sizes (within the tolerance), each with its pages, in order of first appearance.
 * Pages × sizes comparisons at most: both are bounded by the pages preflight reads (bounds.ts).
 */
export function pageSizeGroups(sizes: readonly PdfPageSize[]): SizeGroup[] {
  const groups: SizeGroup[] = [];
  for (const page of sizes) {
    const [width, height] = finalSize(page);
    const same = groups.find(
      (group) => Math.abs(group.width - width) <= PAGE_SIZE_TOLERANCE_MM && Math.abs(group.height - height) <= PAGE_SIZE_TOLERANCE_MM,
    );
    if (same) same.pages++;
    else groups.push({ width, height, pages: 1 });
  }
  return groups;
}

const pagesText = (pages: number) => `${count(pages)} page${pages === 1 ? '' : 's'}`;
const groupText = (group: SizeGroup) => `${sizeText(group.width, group.height)} (${pagesText(group.pages)})`;

/**
 * The warning for pages of more than one size: each size with its pages, in order of appearance —
 * or, beyond MAX_NAMED_SIZES, the most common ones and a count of the rest, so that a file of
 * thousands of sizes still gets one short message.
 */
export function mixedSizesMessage(groups: readonly SizeGroup[]): string {
  if (groups.length <= MAX_NAMED_SIZES) return `Mixed page sizes: ${groups.map(groupText).join(', ')}`;
  const named = groups
    .map((group, index) => ({ group, index }))
    .sort((a, b) => b.group.pages - a.group.pages || a.index - b.index)
    .slice(0, MAX_NAMED_SIZES)
    .map(({ group }) => group);
  const restPages = groups.reduce((sum, group) => sum + group.pages, 0) - named.reduce((sum, group) => sum + group.pages, 0);
  const rest = groups.length - named.length;
  return `Mixed page sizes (${count(groups.length)} sizes): ${named.map(groupText).join(', ')}, and ${count(rest)} more size${rest === 1 ? '' : 's'} (${pagesText(restPages)})`;
}

/** A PDF that crossed a bound of preflight's: skipped (larger than it reads) or failed (built to be unreadable), saying which. */
function limitPreflight(error: PdfLimitError): Omit<Preflight, 'checked_at'> {
  return error.outcome === 'skipped'
    ? { ...empty(), status: 'skipped', checks: [{ code: 'limits', result: 'warning', message: error.message }] }
    : { ...empty(), status: 'failed', checks: [{ code: 'readable', result: 'failed', message: error.message }] };
}

export async function pdfPreflight(bytes: Uint8Array): Promise<Omit<Preflight, 'checked_at'>> {
  let facts;
  try {
    facts = await pdfFacts(bytes);
  } catch (error) {
    if (error instanceof PdfLimitError) return limitPreflight(error);
    if (!(error instanceof PdfReadError)) throw error;
    return { ...empty(), status: 'failed', checks: [{ code: 'readable', result: 'failed', message: error.message }] };
  }
  const checks: Check[] = [];
  checks.push(
    facts.encrypted
      ? { code: 'encryption', result: 'failed', message: 'The PDF is encrypted: send it without a password or restrictions' }
      : { code: 'encryption', result: 'passed', message: 'Not encrypted' },
  );
  if (facts.pages === null) {
    checks.push({ code: 'pages', result: 'failed', message: 'The pages could not be read (the page tree is encrypted)' });
  } else if (facts.pages === 0) {
    checks.push({ code: 'pages', result: 'failed', message: 'The PDF has no pages' });
  } else {
    checks.push({ code: 'pages', result: 'passed', message: pagesText(facts.pages) });
  }
  const groups = pageSizeGroups(facts.sizes);
  if (groups.length > 1) {
    checks.push({ code: 'page_size', result: 'warning', message: mixedSizesMessage(groups) });
  } else if (groups.length === 1) {
    checks.push({ code: 'page_size', result: 'passed', message: `Every page is ${sizeText(groups[0]!.width, groups[0]!.height)}` });
  }
  return {
    ...empty(),
    status: statusOf(checks),
    checks,
    pages: facts.pages,
    page_sizes: facts.sizes.slice(0, MAX_LISTED_PAGES),
    encrypted: facts.encrypted,
  };
}

/** The size in mm an image prints at with `dpi` dots per inch. */
const printSize = (facts: ImageFacts, dpi: number) => sizeText((facts.width / dpi) * 25.4, (facts.height / dpi) * 25.4);

export function imagePreflight(type: CheckedImageType, bytes: Uint8Array): Omit<Preflight, 'checked_at'> {
  const name = TYPE_NAMES[type];
  let facts: ImageFacts;
  try {
    facts = imageReaders[type](bytes);
  } catch (error) {
    if (!(error instanceof ImageHeaderError) && !(error instanceof RangeError)) throw error;
    return {
      ...empty(),
      status: 'failed',
      checks: [{ code: 'readable', result: 'failed', message: `The ${name} header could not be read: ${error.message}` }],
    };
  }
  const pixels = `${facts.width} × ${facts.height} px`;
  const check: Check =
    facts.dpi === null
      ? {
          code: 'resolution',
          result: 'warning',
          message: `${pixels}; the file states no resolution (at ${MIN_PRINT_DPI} dpi it prints at ${printSize(facts, MIN_PRINT_DPI)})`,
        }
      : facts.dpi < MIN_PRINT_DPI
        ? {
            code: 'resolution',
            result: 'warning',
            message: `${pixels} at ${format(facts.dpi)} dpi, under the ${MIN_PRINT_DPI} dpi print needs (${printSize(facts, facts.dpi)}; at ${MIN_PRINT_DPI} dpi ${printSize(facts, MIN_PRINT_DPI)})`,
          }
        : { code: 'resolution', result: 'passed', message: `${pixels} at ${format(facts.dpi)} dpi (${printSize(facts, facts.dpi)})` };
  return { ...empty(), status: statusOf([check]), checks: [check], width_px: facts.width, height_px: facts.height, dpi: facts.dpi };
}

/** A file of a type no print check applies to: skipped, and said so. */
export function notCheckedPreflight(type: FileType): Omit<Preflight, 'checked_at'> {
  return {
    ...empty(),
    status: 'skipped',
    checks: [{ code: 'type', result: 'warning', message: `Not checked: no print checks apply to ${TYPE_NAMES[type]} files` }],
  };
}

/**
 * A file whose check could not run to its end (the reader failed on it, or the worker stopped while
 * checking it): `failed` or `skipped` with the reason, so that no file stays pending.
 */
export function unfinishedPreflight(status: 'failed' | 'skipped', message: string): Omit<Preflight, 'checked_at'> {
  return {
    ...empty(),
    status,
    checks: [status === 'failed' ? { code: 'readable', result: 'failed', message } : { code: 'limits', result: 'warning', message }],
  };
}

const bounded = (message: string) =>
  message.length > MAX_CHECK_MESSAGE_LENGTH ? `${message.slice(0, MAX_CHECK_MESSAGE_LENGTH - 1)}…` : message;

/** The preflight of a file of `type` with these bytes, checked at `now`; no message longer than MAX_CHECK_MESSAGE_LENGTH. */
export async function preflightOf(type: FileType, bytes: Uint8Array, now = new Date()): Promise<Preflight> {
  const result =
    type === 'application/pdf'
      ? await pdfPreflight(bytes)
      : type in imageReaders
        ? imagePreflight(type as CheckedImageType, bytes)
        : notCheckedPreflight(type);
  return {
    ...result,
    checks: result.checks.map((check) => ({ ...check, message: bounded(check.message) })),
    checked_at: now.toISOString(),
  };
}

/**
 * What preflight reads of a PDF, with pdf-lib (a maintained pure-JavaScript PDF library): the page
 * count, each page's MediaBox and — when the page has one — TrimBox in millimetres, and whether
 * the document is encrypted. pdf-lib parses the whole file (object streams included) without
 * rendering anything; an encrypted file is opened with `ignoreEncryption`, so its page tree is
 * still read when it is not itself encrypted (in object streams it is, and the pages are unknown).
 */
import { PDFDocument, PDFName, PDFNumber, type PDFArray, type PDFPage } from 'pdf-lib';

/** One page's size in millimetres (PDF user space: 1/72 inch, times the page's UserUnit). */
export interface PdfPageSize {
  page: number;
  width_mm: number;
  height_mm: number;
  trim_width_mm: number | null;
  trim_height_mm: number | null;
}

export interface PdfFacts {
  /** The page count, or null when the page tree could not be read. */
  pages: number | null;
  /** Every page's size, in page order (the caller keeps as many as it shows). */
  sizes: PdfPageSize[];
  encrypted: boolean;
}

/** Thrown when the bytes are not a PDF pdf-lib can open; the check reports it as unreadable. */
export class PdfReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfReadError';
  }
}

const MM_PER_POINT = 25.4 / 72;
const mm = (points: number, unit: number) => Math.round(Math.abs(points) * unit * MM_PER_POINT * 10) / 10;

/** A box's width and height in points (its corners may come in any order), or undefined when it is not four numbers. */
function boxSize(box: PDFArray | undefined): { width: number; height: number } | undefined {
  if (!box || box.size() !== 4) return undefined;
  const values = box.asArray().map((value) => (value instanceof PDFNumber ? value.asNumber() : Number.NaN));
  if (values.some((value) => !Number.isFinite(value))) return undefined;
  const [x1, y1, x2, y2] = values as [number, number, number, number];
  return { width: x2 - x1, height: y2 - y1 };
}

function pageSize(page: PDFPage, index: number): PdfPageSize {
  const leaf = page.node;
  const userUnit = leaf.lookup(PDFName.of('UserUnit'));
  const unit = userUnit instanceof PDFNumber && userUnit.asNumber() > 0 ? userUnit.asNumber() : 1;
  // MediaBox is inheritable (pdf-lib walks the page tree for it); TrimBox belongs to the page itself.
  const media = boxSize(leaf.MediaBox());
  if (!media) throw new PdfReadError(`Page ${index + 1} has no valid MediaBox`);
  const trim = boxSize(leaf.TrimBox());
  return {
    page: index + 1,
    width_mm: mm(media.width, unit),
    height_mm: mm(media.height, unit),
    trim_width_mm: trim ? mm(trim.width, unit) : null,
    trim_height_mm: trim ? mm(trim.height, unit) : null,
  };
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);

export async function pdfFacts(bytes: Uint8Array): Promise<PdfFacts> {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
      // Parse without yielding between objects: the worker has nothing else to do meanwhile.
      parseSpeed: Number.POSITIVE_INFINITY,
    });
  } catch (error) {
    throw new PdfReadError(`The PDF could not be opened: ${reason(error)}`);
  }
  const encrypted = document.isEncrypted;
  let pages: PDFPage[];
  try {
    pages = document.getPages();
  } catch (error) {
    // The page tree of an encrypted file may sit in an encrypted object stream.
    if (encrypted) return { pages: null, sizes: [], encrypted };
    throw new PdfReadError(`The PDF's page tree could not be read: ${reason(error)}`);
  }
  try {
    return { pages: pages.length, sizes: pages.map(pageSize), encrypted };
  } catch (error) {
    if (encrypted) return { pages: pages.length, sizes: [], encrypted };
    throw error instanceof PdfReadError ? error : new PdfReadError(`The PDF's pages could not be read: ${reason(error)}`);
  }
}

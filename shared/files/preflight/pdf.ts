/**
 * What preflight reads of a PDF, with pdf-lib (a maintained pure-JavaScript PDF library) parsing
 * within bounds (pdf-parser.ts, bounds.ts): the page count, each page's MediaBox and — when the
 * page has one — TrimBox in millimetres, and whether the document is encrypted. The whole file is
 * parsed (object streams included) without rendering anything; an encrypted file's page tree is
 * still read when it is not itself encrypted (in object streams it is, and the pages are unknown).
 *
 * The page tree is walked here rather than by pdf-lib's getPages: pdf-lib recurses through it and
 * climbs each page's /Parent chain for its MediaBox, so a tree that loops never ends (or ends in a
 * stack overflow) and one whose nodes are shared — two kids naming the same node, 30 levels deep —
 * is a billion pages. This walk keeps a stack of its own, takes inherited boxes down the path it
 * walks, refuses a node it reaches twice and stops at the page bound.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFPageLeaf, PDFPageTree, type PDFContext, type PDFObject } from 'pdf-lib';
import { count, ParseGuard, PdfLimitError, PREFLIGHT_LIMITS, type PreflightLimits } from './bounds';
import { BoundedPdfParser } from './pdf-parser';

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

const MEDIA_BOX = PDFName.of('MediaBox');
const TRIM_BOX = PDFName.of('TrimBox');
const USER_UNIT = PDFName.of('UserUnit');
const KIDS = PDFName.of('Kids');

/** A box's width and height in points (its corners may come in any order), or undefined when it is not four numbers. */
function boxSize(box: PDFObject | undefined): { width: number; height: number } | undefined {
  if (!(box instanceof PDFArray) || box.size() !== 4) return undefined;
  const values = box.asArray().map((value) => (value instanceof PDFNumber ? value.asNumber() : Number.NaN));
  if (values.some((value) => !Number.isFinite(value))) return undefined;
  const [x1, y1, x2, y2] = values as [number, number, number, number];
  return { width: x2 - x1, height: y2 - y1 };
}

/** A page's size: its own MediaBox or the nearest ancestor's on the walked path; its own TrimBox and UserUnit. */
function pageSize(context: PDFContext, leaf: PDFDict, media: PDFObject | undefined, page: number): PdfPageSize {
  const userUnit = leaf.lookup(USER_UNIT);
  const unit = userUnit instanceof PDFNumber && userUnit.asNumber() > 0 ? userUnit.asNumber() : 1;
  const mediaBox = boxSize(context.lookup(media));
  if (!mediaBox) throw new PdfReadError(`Page ${page} has no valid MediaBox`);
  const trim = boxSize(leaf.lookup(TRIM_BOX));
  return {
    page,
    width_mm: mm(mediaBox.width, unit),
    height_mm: mm(mediaBox.height, unit),
    trim_width_mm: trim ? mm(trim.width, unit) : null,
    trim_height_mm: trim ? mm(trim.height, unit) : null,
  };
}

interface PageTree {
  pages: number;
  sizes: PdfPageSize[];
  /** Why a page's size could not be read (an encrypted file's boxes may be unreadable: its sizes are then left out). */
  sizeError: PdfReadError | undefined;
}

/**
 * The pages in document order: the tree walked depth first with a stack of its own (kids that are
 * neither a page nor a page tree node are left out, as pdf-lib leaves them out).
 */
function readPageTree(context: PDFContext, guard: ParseGuard): PageTree {
  const { limits } = guard;
  const catalog = context.lookup(context.trailerInfo.Root);
  const root = catalog instanceof PDFDict ? catalog.lookup(PDFName.of('Pages')) : undefined;
  if (!(root instanceof PDFPageTree)) throw new PdfReadError("The PDF's page tree could not be read: the document catalog names none");
  const seen = new Set<PDFDict>([root]);
  const stack: { node: PDFDict; media: PDFObject | undefined; depth: number }[] = [{ node: root, media: undefined, depth: 1 }];
  const tree: PageTree = { pages: 0, sizes: [], sizeError: undefined };
  while (stack.length > 0) {
    guard.tick();
    const { node, media: inherited, depth } = stack.pop()!;
    const media = node.get(MEDIA_BOX) ?? inherited;
    if (node instanceof PDFPageLeaf) {
      if (++tree.pages > limits.pages) {
        const claimed = root.lookup(PDFName.of('Count'));
        const says =
          claimed instanceof PDFNumber && claimed.asNumber() > limits.pages ? ` (its page tree counts ${count(claimed.asNumber())})` : '';
        throw new PdfLimitError(
          'pages',
          'skipped',
          `Not checked: more than ${count(limits.pages)} pages${says}; preflight reads at most ${count(limits.pages)}`,
        );
      }
      if (!tree.sizeError) {
        try {
          tree.sizes.push(pageSize(context, node, media, tree.pages));
        } catch (error) {
          tree.sizeError = error instanceof PdfReadError ? error : new PdfReadError(`Page ${tree.pages}'s size could not be read`);
        }
      }
      continue;
    }
    if (depth >= limits.pageTreeDepth) {
      throw new PdfLimitError('pageTree', 'failed', `The PDF's page tree is more than ${limits.pageTreeDepth} levels deep`);
    }
    const kids = node.lookup(KIDS);
    if (!(kids instanceof PDFArray)) continue;
    for (let index = kids.size() - 1; index >= 0; index--) {
      const kid = context.lookup(kids.get(index));
      if (kid instanceof PDFPageTree) {
        if (seen.has(kid)) {
          throw new PdfLimitError(
            'pageTree',
            'failed',
            "The PDF's page tree is not a tree: a node is reached twice (it loops, or is shared)",
          );
        }
        seen.add(kid);
      } else if (!(kid instanceof PDFPageLeaf)) continue;
      stack.push({ node: kid, media, depth: depth + 1 });
    }
  }
  return tree;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);

/**
 * The facts of a PDF, within `limits`: a crossed bound throws PdfLimitError (which bound, and
 * whether the file failed or was skipped), a file pdf-lib cannot read PdfReadError.
 */
export async function pdfFacts(
  bytes: Uint8Array,
  limits: Readonly<PreflightLimits> = PREFLIGHT_LIMITS,
  clock = Date.now,
): Promise<PdfFacts> {
  const guard = new ParseGuard(limits, clock);
  let context: PDFContext;
  try {
    context = await new BoundedPdfParser(bytes, guard).parseDocument();
  } catch (error) {
    if (guard.stopped) throw guard.stopped;
    throw new PdfReadError(`The PDF could not be opened: ${reason(error)}`);
  }
  // A bound crossed inside an object pdf-lib then skipped still ends the read.
  if (guard.stopped) throw guard.stopped;
  const encrypted = Boolean(context.lookup(context.trailerInfo.Encrypt));
  let tree: PageTree;
  try {
    tree = readPageTree(context, guard);
  } catch (error) {
    if (error instanceof PdfLimitError) throw error;
    // The page tree of an encrypted file may sit in an encrypted object stream.
    if (encrypted) return { pages: null, sizes: [], encrypted };
    throw error instanceof PdfReadError ? error : new PdfReadError(`The PDF's page tree could not be read: ${reason(error)}`);
  }
  if (tree.sizeError) {
    if (encrypted) return { pages: tree.pages, sizes: [], encrypted };
    throw tree.sizeError;
  }
  return { pages: tree.pages, sizes: tree.sizes, encrypted };
}

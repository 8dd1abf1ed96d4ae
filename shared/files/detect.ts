/**
 * What a file is, decided by its first bytes (its "magic"), never by the name or the type the
 * client declared: a PNG sent as `application/pdf` is a PNG. Only the types a print shop takes
 * are recognised; anything else is undefined (415). Pure: `head` is the file's first bytes
 * (FILE_HEAD_BYTES are enough for every rule here).
 */

/** How many leading bytes detection reads. */
export const FILE_HEAD_BYTES = 1024;

export const ALLOWED_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/tiff',
  'image/svg+xml',
  'application/postscript',
  'application/zip',
] as const;
export type FileType = (typeof ALLOWED_TYPES)[number];

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0): boolean =>
  head.length >= at + bytes.length && bytes.every((byte, index) => head[at + index] === byte);

const ascii = (text: string): number[] => [...text].map((character) => character.charCodeAt(0));

/** The leading text of the file (UTF-8 BOM and whitespace skipped), lower-cased: for SVG. */
function leadingText(head: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
}

/** An SVG document: its root element is `<svg`, after an optional XML declaration, comments and a DOCTYPE. */
function isSvg(head: Uint8Array): boolean {
  let text = leadingText(head);
  if (!text.startsWith('<')) return false;
  // Skip the prolog: <?xml …?>, <!-- … -->, <!DOCTYPE …>, whitespace between them.
  for (;;) {
    const prolog = /^(<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype[^>]*>)\s*/.exec(text);
    if (!prolog) break;
    text = text.slice(prolog[0].length);
  }
  return /^<svg[\s>/]/.test(text);
}

export function detectFileType(head: Uint8Array): FileType | undefined {
  if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  // PostScript and EPS (%!PS-Adobe-3.0 EPSF-3.0), and DOS EPS with its binary header.
  if (startsWith(head, ascii('%!PS')) || startsWith(head, [0xc5, 0xd0, 0xd3, 0xc6])) return 'application/postscript';
  // A ZIP archive: a local file header, or the end record of an empty archive.
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'application/zip';
  if (isSvg(head)) return 'image/svg+xml';
  return undefined;
}

/** The usual file extension of a type, for names that lack one. */
export const extensionOf: Record<FileType, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/tiff': 'tif',
  'image/svg+xml': 'svg',
  'application/postscript': 'eps',
  'application/zip': 'zip',
};

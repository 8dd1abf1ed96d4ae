/**
 * Files for the preflight tests, made by hand: an encrypted PDF (pdf-lib cannot encrypt, so a
 * pdf-lib document gets a Standard security handler dictionary in its trailer — what an
 * encrypted file's reader sees first), JPEG and TIFF headers with the size and resolution fields
 * the checks read, and hostile PDFs written byte by byte (rawPdf): 20,000 pages, an object stream
 * that inflates a thousandfold, a page tree that loops or shares its nodes, arrays nested 100,000
 * deep, a run of digits that makes pdf-lib's recovery quadratic, hundreds of broken objects.
 */
import { constants, deflateRawSync } from 'node:zlib';
import { PDFDocument, PDFHexString } from 'pdf-lib';

const PT_PER_MM = 72 / 25.4;

/** A PDF of `pages` A4 pages whose trailer names an /Encrypt dictionary (RC4 40-bit, Standard handler). */
export async function encryptedPdfOf(pages = 1): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  for (let index = 0; index < pages; index++) document.addPage([210 * PT_PER_MM, 297 * PT_PER_MM]);
  const context = document.context;
  context.trailerInfo.Encrypt = context.register(
    context.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      O: PDFHexString.of('00'.repeat(32)),
      U: PDFHexString.of('00'.repeat(32)),
      P: -44,
    }),
  );
  return document.save({ useObjectStreams: false });
}

const u16 = (value: number, little = false) => {
  const bytes = Buffer.alloc(2);
  if (little) bytes.writeUInt16LE(value);
  else bytes.writeUInt16BE(value);
  return bytes;
};

/** A segment: marker, length (including itself), data. */
const segment = (marker: number, data: Buffer) => Buffer.concat([Buffer.from([0xff, marker]), u16(data.length + 2), data]);

/**
 * A JPEG's headers up to its first scan: SOI, an optional JFIF APP0 (units 0 aspect ratio, 1 dpi,
 * 2 dots per cm), an optional EXIF APP1 (a TIFF structure with the resolution tags), a baseline
 * SOF0 of `width` × `height`, then SOS and EOI (no image data: the checks stop at the frame header).
 */
export function jpegOf(
  width: number,
  height: number,
  options: { jfif?: { units: number; x: number; y: number }; exif?: { x: number; y: number; unit?: number } } = {},
): Uint8Array {
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  if (options.jfif) {
    const { units, x, y } = options.jfif;
    parts.push(
      segment(0xe0, Buffer.concat([Buffer.from('JFIF\0', 'latin1'), Buffer.from([1, 2, units]), u16(x), u16(y), Buffer.from([0, 0])])),
    );
  }
  if (options.exif) {
    const tiff = tiffOf(0, 0, { x: options.exif.x, y: options.exif.y, unit: options.exif.unit, little: false });
    parts.push(segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff])));
  }
  const frame = Buffer.concat([Buffer.from([8]), u16(height), u16(width), Buffer.from([1, 1, 0x11, 0])]);
  parts.push(segment(0xc0, frame));
  parts.push(segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])));
  parts.push(Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

/**
 * A TIFF header with one IFD: ImageWidth/ImageLength (omitted when 0), and with `x` the
 * XResolution/YResolution rationals and ResolutionUnit (`unit`, omitted when undefined: inch by default).
 */
export function tiffOf(width: number, height: number, options: { x?: number; y?: number; unit?: number; little?: boolean } = {}): Buffer {
  const little = options.little ?? true;
  const entries: { tag: number; type: number; value: number }[] = [];
  if (width) entries.push({ tag: 256, type: 4, value: width });
  if (height) entries.push({ tag: 257, type: 3, value: height });
  const rationals: number[] = [];
  if (options.x !== undefined) {
    entries.push({ tag: 282, type: 5, value: rationals.push(options.x) - 1 });
    entries.push({ tag: 283, type: 5, value: rationals.push(options.y ?? options.x) - 1 });
  }
  if (options.unit !== undefined) entries.push({ tag: 296, type: 3, value: options.unit });
  const ifdOffset = 8;
  const rationalsOffset = ifdOffset + 2 + entries.length * 12 + 4;
  const bytes = Buffer.alloc(rationalsOffset + rationals.length * 8);
  const w16 = (offset: number, value: number) => (little ? bytes.writeUInt16LE(value, offset) : bytes.writeUInt16BE(value, offset));
  const w32 = (offset: number, value: number) => (little ? bytes.writeUInt32LE(value, offset) : bytes.writeUInt32BE(value, offset));
  bytes.write(little ? 'II' : 'MM', 0, 'latin1');
  w16(2, 42);
  w32(4, ifdOffset);
  w16(ifdOffset, entries.length);
  entries.forEach((entry, index) => {
    const at = ifdOffset + 2 + index * 12;
    w16(at, entry.tag);
    w16(at + 2, entry.type);
    w32(at + 4, 1);
    if (entry.type === 3) w16(at + 8, entry.value);
    else if (entry.type === 4) w32(at + 8, entry.value);
    else w32(at + 8, rationalsOffset + entry.value * 8);
  });
  rationals.forEach((value, index) => {
    // The rational as value·100/100, so fractional resolutions survive.
    w32(rationalsOffset + index * 8, Math.round(value * 100));
    w32(rationalsOffset + index * 8 + 4, 100);
  });
  return bytes;
}

/**
 * A PDF of the given object bodies (object n is `bodies[n - 1]`), with a cross-reference table and
 * a trailer whose /Root is object 1 — what a writer makes, without pdf-lib's checks on the way.
 */
export function rawPdf(bodies: readonly (string | Uint8Array)[], trailer = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  bodies.forEach((body, index) => {
    const object = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    offsets.push(length);
    parts.push(object);
    length += object.length;
  });
  const xref = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R${trailer} >>\nstartxref\n${length}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/** A stream object's body: the dictionary (with its /Length) and the data. */
export const streamBody = (dictionary: string, data: Uint8Array): Buffer =>
  Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);

const A4 = '[0 0 595.28 841.89]';

/** Catalog, page tree and one A4 page: objects 1 to 3, for the hostile files to add to. */
const onePage = [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
  `<< /Type /Page /Parent 2 0 R /MediaBox ${A4} >>`,
];

/** `count` pages in one flat page tree, A4 from the tree but for page 1 (A5) and page 2 (A5 landscape): three sizes. */
export function manyPagesPdf(count: number): Buffer {
  const pages = Array.from({ length: count }, (_, index) => {
    const box = index === 0 ? ' /MediaBox [0 0 419.53 595.28]' : index === 1 ? ' /MediaBox [0 0 595.28 419.53]' : '';
    return `<< /Type /Page /Parent 2 0 R${box} >>`;
  });
  const kids = pages.map((_, index) => `${index + 3} 0 R`).join(' ');
  return rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Count ${count} /MediaBox ${A4} /Kids [${kids}] >>`, ...pages]);
}

/** Adler-32 of `length` bytes of `byte` (the zlib trailer), without making them. */
function adler32OfRun(byte: number, length: number): number {
  const modulus = 65521n;
  const [n, b] = [BigInt(length), BigInt(byte)];
  const a = (1n + n * b) % modulus;
  const sum = (n + (b * n * (n + 1n)) / 2n) % modulus;
  return Number((sum << 16n) | a) >>> 0;
}

/**
 * zlib data that inflates to `mebibytes` MiB of spaces — about 1 KB per MiB, so 300 MiB from 311 KB
 * (deflate's limit is about 1,030:1) — made from one sync-flushed deflate of 1 MiB repeated, so
 * nothing of that size is ever held.
 */
export function inflatingData(mebibytes: number): Buffer {
  const piece = deflateRawSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(adler32OfRun(0x20, mebibytes * 1024 * 1024));
  // zlib header (deflate, best compression), the pieces, an empty final fixed block, the checksum.
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array<Buffer>(mebibytes).fill(piece), Buffer.from([0x03, 0x00]), checksum]);
}

/** One A4 page, and object streams that each inflate to `mebibytes` MiB. */
export function inflatingPdf(mebibytes: number, streams = 1): Buffer {
  const data = inflatingData(mebibytes);
  return rawPdf([
    ...onePage,
    ...Array.from({ length: streams }, () => streamBody('/Type /ObjStm /N 1 /First 8 /Filter /FlateDecode', data)),
  ]);
}

/** A page tree whose second node names the root among its kids: a loop. */
export function cyclicPageTreePdf(): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count 2 /Kids [3 0 R] /MediaBox ${A4} >>`,
    '<< /Type /Pages /Count 2 /Parent 2 0 R /Kids [2 0 R 4 0 R] >>',
    '<< /Type /Page /Parent 3 0 R >>',
  ]);
}

/** A page tree of `depth` nodes, each naming the next twice: 2^depth pages from a few kilobytes. */
export function sharedPageTreePdf(depth: number): Buffer {
  const nodes = Array.from({ length: depth }, (_, level) => {
    const next = level + 3;
    return `<< /Type /Pages /Count ${2 ** (depth - level)} /Kids [${next} 0 R ${next} 0 R] /MediaBox ${A4} >>`;
  });
  return rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', ...nodes, '<< /Type /Page >>']);
}

/** One page whose dictionary holds arrays nested `depth` deep. */
export function nestedPdf(depth: number): Buffer {
  return rawPdf([
    onePage[0]!,
    onePage[1]!,
    `<< /Type /Page /Parent 2 0 R /MediaBox ${A4} /Junk ${'['.repeat(depth)}${']'.repeat(depth)} >>`,
  ]);
}

/**
 * One page, then a run of `digits` digits between objects: pdf-lib looks for the next object header
 * at every byte of junk, and each look reads the rest of the run as a number (quadratic).
 */
export function digitRunPdf(digits: number): Buffer {
  return rawPdf([...onePage, `null\nendobj\nx${'9'.repeat(digits)}\n4 0 obj\nnull`]);
}

/** One page and `count` objects that cannot be parsed (pdf-lib skips each, with two warnings). */
export function brokenObjectsPdf(count: number): Buffer {
  return rawPdf([...onePage, ...Array.from({ length: count }, () => '<< /Broken [1 2 >> ) >>')]);
}

/**
 * Files for the preflight tests, made by hand: an encrypted PDF (pdf-lib cannot encrypt, so a
 * pdf-lib document gets a Standard security handler dictionary in its trailer — what an
 * encrypted file's reader sees first), and JPEG and TIFF headers with the size and resolution
 * fields the checks read.
 */
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

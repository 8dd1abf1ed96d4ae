/**
 * The headers of the image types a file may be (detect.ts), read by hand — a few dozen bytes each,
 * so no native or third-party decoder: the pixel size, and the resolution the file states.
 *
 * - PNG: IHDR (width, height); pHYs with unit 1 (pixels per metre) — unit 0 is an aspect ratio only.
 * - JPEG: the first SOF marker (height, width); JFIF's density in APP0 (units 1 dpi, 2 dots per cm;
 *   0 is an aspect ratio only), else EXIF's XResolution/YResolution with ResolutionUnit in APP1.
 * - TIFF (both byte orders): the first IFD's ImageWidth/ImageLength, XResolution/YResolution with
 *   ResolutionUnit (1 none, 2 inch — the default —, 3 centimetre).
 *
 * A resolution is stated per axis; `dpi` is the lower of the two (what limits the print), rounded
 * to a tenth (a PNG's 300 dpi is 11,811 pixels per metre: 299.9994).
 */

export interface ImageFacts {
  width: number;
  height: number;
  /** Dots per inch as the file states it (the lower axis), or null when it states none. */
  dpi: number | null;
}

/** Thrown for a header that cannot be read; the check reports it as unreadable. */
export class ImageHeaderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageHeaderError';
  }
}

const INCH_MM = 25.4;

const roundDpi = (value: number): number => Math.round(value * 10) / 10;

/** The lower of two per-axis resolutions in dpi, or null when neither is a positive finite number. */
function lowerDpi(x: number, y: number): number | null {
  const stated = [x, y].filter((value) => Number.isFinite(value) && value > 0);
  return stated.length ? roundDpi(Math.min(...stated)) : null;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function need(bytes: Uint8Array, end: number, what: string): void {
  if (end > bytes.length) throw new ImageHeaderError(`The ${what} ends before its header does`);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function pngFacts(bytes: Uint8Array): ImageFacts {
  need(bytes, 33, 'PNG');
  if (!PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) throw new ImageHeaderError('Not a PNG signature');
  const data = view(bytes);
  const ascii = (offset: number) => String.fromCharCode(...bytes.subarray(offset, offset + 4));
  if (ascii(12) !== 'IHDR') throw new ImageHeaderError('The PNG does not start with its IHDR chunk');
  const width = data.getUint32(16);
  const height = data.getUint32(20);
  if (!width || !height) throw new ImageHeaderError('The PNG states no pixel size');
  let dpi: number | null = null;
  // Chunks: length (4), type (4), data, CRC (4). pHYs must come before the first IDAT.
  for (let offset = 8; offset + 8 <= bytes.length;) {
    const length = data.getUint32(offset);
    const type = ascii(offset + 4);
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'pHYs' && length >= 9 && offset + 17 <= bytes.length) {
      if (bytes[offset + 16] === 1)
        dpi = lowerDpi(data.getUint32(offset + 8) * (INCH_MM / 1000), data.getUint32(offset + 12) * (INCH_MM / 1000));
      break;
    }
    offset += 12 + length;
  }
  return { width, height, dpi };
}

/** JPEG start-of-frame markers (baseline, progressive, lossless, …): not DHT (C4), JPG (C8) or DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

export function jpegFacts(bytes: Uint8Array): ImageFacts {
  need(bytes, 4, 'JPEG');
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new ImageHeaderError('Not a JPEG start of image');
  const data = view(bytes);
  let jfifDpi: number | null | undefined;
  let exifDpi: number | null = null;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw new ImageHeaderError(`The JPEG has no marker at byte ${offset}`);
    const marker = bytes[offset + 1]!;
    // Fill bytes, and markers without a length (TEM, RSTn, SOI).
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, start of scan: no frame header before it
    const length = data.getUint16(offset + 2);
    const segment = offset + 4;
    if (length < 2) throw new ImageHeaderError('The JPEG has a segment of invalid length');
    if (isStartOfFrame(marker)) {
      need(bytes, segment + 5, 'JPEG');
      const height = data.getUint16(segment + 1);
      const width = data.getUint16(segment + 3);
      if (!width || !height) throw new ImageHeaderError('The JPEG states no pixel size');
      return { width, height, dpi: jfifDpi ?? exifDpi };
    }
    if (
      marker === 0xe0 &&
      length >= 16 &&
      segment + 12 <= bytes.length &&
      String.fromCharCode(...bytes.subarray(segment, segment + 5)) === 'JFIF\0'
    ) {
      const units = bytes[segment + 7];
      const x = data.getUint16(segment + 8);
      const y = data.getUint16(segment + 10);
      if (units === 1) jfifDpi = lowerDpi(x, y);
      else if (units === 2) jfifDpi = lowerDpi(x * 2.54, y * 2.54);
    }
    if (marker === 0xe1 && length >= 16 && String.fromCharCode(...bytes.subarray(segment, segment + 6)) === 'Exif\0\0') {
      const end = Math.min(bytes.length, segment + length - 2);
      try {
        exifDpi = tiffHeader(bytes.subarray(segment + 6, end)).dpi;
      } catch {
        exifDpi = null; // an unreadable EXIF block says nothing about the resolution
      }
    }
    offset = segment + length - 2;
  }
  throw new ImageHeaderError('The JPEG has no frame header (SOF) before its image data');
}

const TIFF_TYPE_SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };

/** The first IFD of a TIFF structure (a TIFF file, or an EXIF block): size and resolution tags. */
function tiffHeader(bytes: Uint8Array): { width: number | null; height: number | null; dpi: number | null } {
  need(bytes, 8, 'TIFF');
  const order = String.fromCharCode(bytes[0]!, bytes[1]!);
  if (order !== 'II' && order !== 'MM') throw new ImageHeaderError('Not a TIFF byte order mark');
  const little = order === 'II';
  const data = view(bytes);
  const u16 = (offset: number) => data.getUint16(offset, little);
  const u32 = (offset: number) => data.getUint32(offset, little);
  if (u16(2) !== 42) throw new ImageHeaderError('Not a TIFF header');
  const ifd = u32(4);
  need(bytes, ifd + 2, 'TIFF');
  const count = u16(ifd);
  need(bytes, ifd + 2 + count * 12, 'TIFF');
  /** A tag's first value: SHORT or LONG inline, RATIONAL at its offset. */
  const value = (entry: number): number => {
    const type = u16(entry + 2);
    if (type === 3) return u16(entry + 8);
    if (type === 4) return u32(entry + 8);
    if (type === 5) {
      const at = u32(entry + 8);
      need(bytes, at + 8, 'TIFF');
      const denominator = u32(at + 4);
      return denominator ? u32(at) / denominator : Number.NaN;
    }
    if (!TIFF_TYPE_SIZES[type]) throw new ImageHeaderError(`The TIFF has a tag of unknown type ${type}`);
    return Number.NaN;
  };
  const tags = new Map<number, number>();
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * 12;
    const tag = u16(entry);
    if ([256, 257, 282, 283, 296].includes(tag)) tags.set(tag, value(entry));
  }
  const unit = tags.get(296) ?? 2;
  const perInch = unit === 2 ? 1 : unit === 3 ? 2.54 : 0;
  const x = tags.get(282);
  const y = tags.get(283) ?? x;
  const dpi = perInch && x !== undefined && y !== undefined ? lowerDpi(x * perInch, y * perInch) : null;
  return { width: tags.get(256) ?? null, height: tags.get(257) ?? null, dpi };
}

export function tiffFacts(bytes: Uint8Array): ImageFacts {
  const header = tiffHeader(bytes);
  if (!header.width || !header.height) throw new ImageHeaderError('The TIFF states no pixel size (ImageWidth, ImageLength)');
  return { width: header.width, height: header.height, dpi: header.dpi };
}

/** The facts of an image of a type this module reads. */
export const imageReaders = {
  'image/png': pngFacts,
  'image/jpeg': jpegFacts,
  'image/tiff': tiffFacts,
} as const;

export type CheckedImageType = keyof typeof imageReaders;

/**
 * pdf-lib's parser within the bounds of a ParseGuard (bounds.ts). pdf-lib reads a whole file into
 * its object table before anything else (PDFParser), with loops that trust the file: a compressed
 * object stream is inflated whole, however much it inflates to (and its Flate decoder decodes a
 * deflate block whole, so a hand-made block of gigabytes cannot be stopped from outside); arrays
 * recurse as deep as they nest; a damaged object is skipped by rescanning bytes, with a warning each.
 *
 * These subclasses keep pdf-lib's parsing and semantics and change three things, through its
 * documented extension points (public `parseObject`, the protected primitives):
 *
 * - every primitive pdf-lib's loops call — an object, a keyword, a number, whitespace, a name —
 *   is a step of the guard's (time, objects, nesting, names, skipped objects), and once a bound is
 *   crossed every one throws, so the parse ends within a few bytes of work whatever loop it is in;
 * - a number of more than 32 digits is refused at once: pdf-lib's search for the next object
 *   header would otherwise read a long run of digits again from each of its positions (quadratic);
 * - object streams are inflated here, by Node's zlib with an output bound (pdf-lib's other filters
 *   read in chunks against the same bound), and parsed by a bounded parser; cross-reference streams
 *   are not decoded at all: pdf-lib reads only their trailer entries (their table, which it never
 *   uses, could claim billions of entries).
 */
import { constants, inflateRawSync } from 'node:zlib';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFObjectStreamParser,
  PDFParser,
  PDFRawStream,
  PDFRef,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';
import type { ParseGuard } from './bounds';

const TYPE = PDFName.of('Type');
const OBJECT_STREAM = PDFName.of('ObjStm');
const XREF = PDFName.of('XRef');
const FILTER = PDFName.of('Filter');
const DECODE_PARMS = PDFName.of('DecodeParms');
const FLATE = PDFName.of('FlateDecode');

/** Digits a PDF integer may have; a longer run is no number pdf-lib could use. */
const MAX_DIGITS = 32;
/** Bytes read at a time from pdf-lib's decoders of the other filters. */
const CHUNK_BYTES = 64 * 1024;

const CHAR = (text: string) => text.charCodeAt(0);
const DIGIT_0 = CHAR('0');
const DIGIT_9 = CHAR('9');
const NUMBER_SIGNS = new Set([CHAR('+'), CHAR('-'), CHAR('.')]);
const NAME_DELIMITERS = new Set([...'()<>[]{}/%'].map(CHAR));

type Bytes = { peekAhead(steps: number): number };

/** How many bytes from the current position `accept` takes, counting up to `max` + 1. */
function runLength(bytes: Bytes, accept: (byte: number) => boolean, max: number, from = 0): number {
  let length = 0;
  while (length <= max) {
    const byte = bytes.peekAhead(from + length);
    if (byte === undefined || !accept(byte)) break;
    length++;
  }
  return length;
}

const isDigit = (byte: number) => byte >= DIGIT_0 && byte <= DIGIT_9;
const isNumberByte = (byte: number) => isDigit(byte) || NUMBER_SIGNS.has(byte);
const isNameByte = (byte: number) => byte >= 0x21 && byte <= 0x7e && !NAME_DELIMITERS.has(byte);

/**
 * Thrown for a number too long to be one. One instance: pdf-lib's search for an object header meets
 * it at every byte of a long run of digits, and a new Error (with its stack) each time would cost
 * more than the search.
 */
const LONG_NUMBER = new Error(`A number of more than ${MAX_DIGITS} digits`);

function refuseLongNumber(bytes: Bytes, accept: (byte: number) => boolean): void {
  if (runLength(bytes, accept, MAX_DIGITS) > MAX_DIGITS) throw LONG_NUMBER;
}

/**
 * pdf-lib's parse of one object or value, as a step of the guard's, with what it holds when it is an
 * object stream (expandStream): an object stream that cannot be read counts as a broken object.
 */
function guardedParse(guard: ParseGuard, context: PDFContext, parse: () => PDFObject): PDFObject {
  guard.enter();
  let object: PDFObject;
  try {
    object = expandStream(parse(), context, guard);
  } catch (error) {
    guard.leave(true);
    throw error;
  }
  guard.leave(false);
  return object;
}

/** pdf.js's Flate header check (pdf-lib's FlateStream makes the same), then a raw inflate stopped at `limit` bytes out. */
function inflateBounded(bytes: Uint8Array, limit: number, guard: ParseGuard): Uint8Array {
  const [cmf, flg] = [bytes[0], bytes[1]];
  if (cmf === undefined || flg === undefined || (cmf & 0x0f) !== 0x08 || ((cmf << 8) + flg) % 31 !== 0 || flg & 0x20) {
    throw new Error(`Invalid header in flate stream: ${cmf}, ${flg}`);
  }
  try {
    // Like pdf-lib's decoder: the Adler-32 checksum is not checked, and a stream cut short gives what it holds.
    return inflateRawSync(bytes.subarray(2), { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') guard.overInflated();
    throw error;
  }
}

/** A filter other than Flate, by pdf-lib's own decoder, read in chunks up to `limit` bytes. */
function decodeOther(
  context: PDFContext,
  bytes: Uint8Array,
  filter: PDFName,
  params: PDFObject | undefined,
  limit: number,
  guard: ParseGuard,
) {
  const single = context.obj({});
  single.set(FILTER, filter);
  if (params) single.set(DECODE_PARMS, params);
  const decoder = decodePDFRawStream(PDFRawStream.of(single, bytes));
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    guard.tick();
    const chunk = decoder.getBytes(CHUNK_BYTES);
    if (chunk.length === 0) break;
    total += chunk.length;
    if (total > limit) guard.overInflated();
    chunks.push(Uint8Array.from(chunk));
  }
  return Buffer.concat(chunks, total);
}

/** The stream's contents through its filters, each within the guard's allowance: the same stream, unfiltered. */
export function decodeBounded(stream: PDFRawStream, guard: ParseGuard): PDFRawStream {
  const { dict } = stream;
  const filter = dict.lookup(FILTER);
  const params = dict.lookup(DECODE_PARMS);
  let stages: { filter: PDFName; params: PDFObject | undefined }[];
  if (filter === undefined) stages = [];
  else if (filter instanceof PDFName) stages = [{ filter, params }];
  else if (filter instanceof PDFArray) {
    stages = filter.asArray().map((_, index) => ({
      filter: filter.lookup(index, PDFName),
      params: params instanceof PDFArray ? params.lookupMaybe(index, PDFDict) : undefined,
    }));
  } else throw new Error("The stream's Filter is neither a name nor an array");
  let bytes = stream.contents;
  for (const stage of stages) {
    const limit = guard.allowance();
    if (limit <= 0) guard.overInflated();
    bytes =
      stage.filter === FLATE
        ? inflateBounded(bytes, limit, guard)
        : decodeOther(dict.context, bytes, stage.filter, stage.params, limit, guard);
    guard.spend(bytes.length);
  }
  const plain = dict.clone();
  plain.delete(FILTER);
  plain.delete(DECODE_PARMS);
  return PDFRawStream.of(plain, bytes);
}

/**
 * What pdf-lib does with an object stream or a cross-reference stream it meets, done here within
 * the guard: an object stream's objects go into the table (and the stream itself is `null`, which
 * pdf-lib then files under its number); a cross-reference stream gives the trailer, as pdf-lib's
 * PDFXRefStreamParser does, without its table.
 */
function expandStream(object: PDFObject, context: PDFContext, guard: ParseGuard): PDFObject {
  if (!(object instanceof PDFRawStream)) return object;
  const type = object.dict.lookup(TYPE);
  if (type === OBJECT_STREAM) {
    new BoundedObjectStreamParser(decodeBounded(object, guard), guard).parseObjects();
    return PDFNull;
  }
  if (type === XREF) {
    const { dict } = object;
    context.trailerInfo = {
      Root: dict.get(PDFName.of('Root')),
      Encrypt: dict.get(PDFName.of('Encrypt')),
      Info: dict.get(PDFName.of('Info')),
      ID: dict.get(PDFName.of('ID')),
    };
    return PDFNull;
  }
  return object;
}

/** The objects of one (decoded) object stream, parsed within the guard. */
class BoundedObjectStreamParser extends PDFObjectStreamParser {
  private readonly first: number;
  private readonly count: number;

  constructor(
    stream: PDFRawStream,
    private readonly guard: ParseGuard,
  ) {
    // Reads /First and /N (either missing throws: the stream is skipped, as pdf-lib skips it).
    super(stream);
    this.first = stream.dict.lookup(PDFName.of('First'), PDFNumber).asNumber();
    this.count = stream.dict.lookup(PDFName.of('N'), PDFNumber).asNumber();
  }

  /** pdf-lib's parseIntoContext, synchronously: the object numbers and offsets, then each object. */
  parseObjects(): void {
    const offsets: [number, number][] = [];
    for (let index = 0; index < this.count; index++) {
      this.skipWhitespaceAndComments();
      const objectNumber = this.parseRawInt();
      this.skipWhitespaceAndComments();
      offsets.push([objectNumber, this.parseRawInt()]);
    }
    for (const [objectNumber, offset] of offsets) {
      this.bytes.moveTo(this.first + offset);
      this.context.assign(PDFRef.of(objectNumber, 0), this.parseObject());
    }
  }

  override parseObject(): PDFObject {
    return guardedParse(this.guard, this.context, () => super.parseObject());
  }

  protected override matchKeyword(keyword: number[]): boolean {
    this.guard.tick();
    return super.matchKeyword(keyword);
  }

  protected override skipWhitespaceAndComments(): void {
    this.guard.tick();
    super.skipWhitespaceAndComments();
  }

  protected override parseRawInt(): number {
    this.guard.tick();
    refuseLongNumber(this.bytes, isDigit);
    return super.parseRawInt();
  }

  protected override parseRawNumber(): number {
    this.guard.tick();
    refuseLongNumber(this.bytes, isNumberByte);
    return super.parseRawNumber();
  }

  protected override parseName(): PDFName {
    this.guard.name(runLength(this.bytes, isNameByte, this.guard.limits.nameBytes, 1));
    return super.parseName();
  }
}

/** A whole PDF: pdf-lib's PDFParser, each step within the guard. */
export class BoundedPdfParser extends PDFParser {
  constructor(
    bytes: Uint8Array,
    private readonly guard: ParseGuard,
  ) {
    // No yielding between objects (the worker has nothing else to do meanwhile); a broken object is
    // skipped, as pdf-lib does, up to the guard's bound on them.
    super(bytes, Number.POSITIVE_INFINITY, false, false);
  }

  override parseObject(): PDFObject {
    return guardedParse(this.guard, this.context, () => super.parseObject());
  }

  protected override matchKeyword(keyword: number[]): boolean {
    this.guard.tick();
    return super.matchKeyword(keyword);
  }

  protected override skipWhitespaceAndComments(): void {
    this.guard.tick();
    super.skipWhitespaceAndComments();
  }

  protected override parseRawInt(): number {
    this.guard.tick();
    refuseLongNumber(this.bytes, isDigit);
    return super.parseRawInt();
  }

  protected override parseRawNumber(): number {
    this.guard.tick();
    refuseLongNumber(this.bytes, isNumberByte);
    return super.parseRawNumber();
  }

  protected override parseName(): PDFName {
    this.guard.name(runLength(this.bytes, isNameByte, this.guard.limits.nameBytes, 1));
    return super.parseName();
  }
}

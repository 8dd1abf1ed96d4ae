/**
 * PDF/A-3 metadata for the Factur-X hybrid. @e-invoice-eu/core (2.3.x) writes the hybrid's last
 * step, the XMP metadata stream, in a way PDF/A validators refuse:
 *
 * - the XMP goes through pdf-lib as a JavaScript string, which pdf-lib writes one byte per UTF-16
 *   unit: "Müller" gets the single byte 0xFC (not UTF-8) and "Łukasiewicz" the byte 0x41 ("A"), so
 *   every PDF of a seller with a non-ASCII name has ill-formed metadata; the packet's byte-order
 *   mark is written as the three Latin-1 characters of UTF-8's BOM for the same reason;
 * - the document information dictionary disagrees with the XMP (PDF/A wants them equivalent): the
 *   title differs from `dc:title`, `pdf:Producer` holds the seller instead of the producing
 *   software, `xmp:CreatorTool` differs from the Creator entry, and the keywords are not in the XMP;
 * - the output intent's ICC profile stream lacks `/N` (its number of colour components).
 *
 * `installPdfaMetadata` replaces that one step (`addMetadata`, which runs after the library set the
 * information dictionary and the output intent) with `writePdfaMetadata`, which repairs all three.
 * A library version whose XMP no longer has the elements this edits fails loudly here, in the
 * tests, rather than writing a hybrid that is not PDF/A.
 *
 * PDF objects are made through the document's own context (`context.obj`), never with this
 * module's pdf-lib classes: under Node the library may load pdf-lib's CommonJS build while this
 * module gets its ES build, two copies whose names and classes do not match each other.
 */
import { replaceLibraryStep } from './library-steps';
import type { PDFArray, PDFDict, PDFDocument, PDFName, PDFObject, PDFStream } from '@cantoo/pdf-lib';

/** What the library's XMP step is: a method of its Factur-X formatter, private in its typings. */
interface MetadataStep {
  addMetadata(pdfDoc: PDFDocument, xmp: string): void;
}

/** UTF-8's byte-order mark as the library writes it: three Latin-1 characters. */
const LATIN1_BOM = '\u00EF\u00BB\u00BF';
const BOM = '\uFEFF';
/** An sRGB profile has three colour components. */
const SRGB_COMPONENTS = 3;

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** `xmp` with the text of the one element `name` replaced; throws when the library no longer writes it. */
function withElementText(xmp: string, name: string, text: string): string {
  const element = new RegExp(`<${name}>[^<]*</${name}>`);
  if (!element.test(xmp)) throw new Error(`Factur-X XMP: no <${name}> to make agree with the document information`);
  return xmp.replace(element, `<${name}>${escapeXml(text)}</${name}>`);
}

/** The XMP the library built, made to agree with the information dictionary it set. */
export function agreeingXmp(pdfDoc: PDFDocument, libraryXmp: string): string {
  const producer = pdfDoc.getProducer() ?? '';
  const creator = pdfDoc.getCreator() ?? '';
  const keywords = pdfDoc.getKeywords() ?? '';
  let xmp = libraryXmp.replace(LATIN1_BOM, BOM);
  xmp = withElementText(xmp, 'pdf:Producer', producer);
  xmp = withElementText(xmp, 'xmp:CreatorTool', creator);
  if (!xmp.includes('</pdf:PDFVersion>')) throw new Error('Factur-X XMP: no <pdf:PDFVersion> to put the keywords beside');
  xmp = xmp.replace('</pdf:PDFVersion>', `</pdf:PDFVersion><pdf:Keywords>${escapeXml(keywords)}</pdf:Keywords>`);
  return xmp;
}

/** A name of the document's own pdf-lib (`context.obj` makes a string a name). */
const nameIn = (pdfDoc: PDFDocument, name: string) => pdfDoc.context.obj(name) as PDFName;

/** The library's output intent profile gets its `/N`. */
function completeOutputIntent(pdfDoc: PDFDocument): void {
  const intents = pdfDoc.catalog.lookup(nameIn(pdfDoc, 'OutputIntents')) as PDFArray | undefined;
  const intent = intents?.lookup(0) as PDFDict | undefined;
  const profile = intent?.lookup(nameIn(pdfDoc, 'DestOutputProfile')) as (PDFObject & Partial<PDFStream>) | undefined;
  if (!profile?.dict) throw new Error('Factur-X: no output intent profile to complete');
  profile.dict.set(nameIn(pdfDoc, 'N'), pdfDoc.context.obj(SRGB_COMPONENTS));
}

/** The hybrid's metadata as PDF/A-3 wants it: the title agreeing with `dc:title`, the XMP in UTF-8, the ICC profile complete. */
export function writePdfaMetadata(pdfDoc: PDFDocument, libraryXmp: string): void {
  // dc:title is the library's subject line ("Invoice … dated … issued by …"): the title says the same.
  const subject = pdfDoc.getSubject();
  if (subject !== undefined) pdfDoc.setTitle(subject);
  completeOutputIntent(pdfDoc);
  const bytes = new TextEncoder().encode(agreeingXmp(pdfDoc, libraryXmp));
  // Unfiltered, so that tools reading metadata without decoding streams find it (PDF/A allows either).
  const stream = pdfDoc.context.stream(bytes, { Type: 'Metadata', Subtype: 'XML', Length: bytes.length });
  pdfDoc.catalog.set(nameIn(pdfDoc, 'Metadata'), pdfDoc.context.register(stream));
}

/** Replaces the library's XMP step with writePdfaMetadata (library-steps.ts). */
export function installPdfaMetadata(format: string): void {
  replaceLibraryStep<MetadataStep, 'addMetadata'>(format, 'addMetadata', () => writePdfaMetadata);
}

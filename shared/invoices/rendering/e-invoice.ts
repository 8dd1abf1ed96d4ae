/**
 * The invoice as an EN 16931 e-invoice in the German CIUS XRechnung 3.0, written by
 * @e-invoice-eu/core: pure XML in either syntax (CII or UBL), or the hybrid ZUGFeRD/Factur-X PDF
 * (PDF/A-3 carrying the CII XML) in the XRECHNUNG profile, so the XML inside the hybrid is the
 * same document as the standalone CII one (same specification identifier BT-24).
 */
import { InvoiceService } from '@e-invoice-eu/core';
import type { InvoiceDocument } from '#shared/invoices/document';
import { logger } from '#shared/logger';
import { withXmlSafeText } from '#shared/schemas/text';
import { toEInvoice } from './e-invoice-mapping';
import { installCiiSellerIdentifier } from './cii-seller-identifier';
import { installPdfaMetadata } from './pdfa-metadata';
import { renderInvoicePdf } from './pdf';

export { toEInvoice } from './e-invoice-mapping';

export type EInvoiceSyntax = 'cii' | 'ubl';

const FORMATS: Record<EInvoiceSyntax, string> = { cii: 'XRECHNUNG-CII', ubl: 'XRECHNUNG-UBL' };
const HYBRID_FORMAT = 'Factur-X-XRechnung';
/** Only used for the canned texts of the hybrid's XMP metadata. */
const LANG = 'en';

/** The library reports problems of the data it was given through this; they go to the service's log. */
const service = new InvoiceService({
  log: (message) => logger.debug(message),
  warn: (message) => logger.warn(message),
  error: (message) => logger.error(message),
});

function text(output: string | Uint8Array): string {
  return typeof output === 'string' ? output : new TextDecoder().decode(output);
}

/**
 * Both renderers draw from `withXmlSafeText(doc)`: text is refused at input when XML 1.0 cannot
 * hold it, but an invoice issued before that rule may still carry such a character (U+FFFF in a
 * name), which would make the whole XML ill-formed; it is drawn as U+FFFD instead.
 */
export async function renderEInvoiceXml(unsafe: InvoiceDocument, syntax: EInvoiceSyntax): Promise<string> {
  const doc = withXmlSafeText(unsafe);
  installCiiSellerIdentifier(FORMATS.cii);
  return text(await service.generate(toEInvoice(doc), { format: FORMATS[syntax], lang: LANG }));
}

/** The PDF of renderInvoicePdf with the CII XML embedded, as a PDF/A-3 Factur-X/ZUGFeRD hybrid. */
export async function renderFacturXPdf(unsafe: InvoiceDocument): Promise<Uint8Array> {
  const doc = withXmlSafeText(unsafe);
  const invoice = toEInvoice(doc); // first, so an invoice that does not reconcile fails before the PDF is drawn
  installCiiSellerIdentifier(FORMATS.cii);
  installPdfaMetadata(HYBRID_FORMAT);
  const pdf = await renderInvoicePdf(doc);
  const output = await service.generate(invoice, {
    format: HYBRID_FORMAT,
    lang: LANG,
    pdf: { buffer: pdf, filename: `${doc.invoice_number}.pdf`, mimetype: 'application/pdf' },
  });
  if (typeof output === 'string') throw new TypeError(`${HYBRID_FORMAT} produced text instead of a PDF`);
  return output;
}

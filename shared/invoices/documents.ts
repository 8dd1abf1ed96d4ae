/**
 * An invoice's documents — the PDF (a ZUGFeRD / Factur-X hybrid with the CII XML inside) and the
 * XRechnung XML in CII and UBL syntax — rendered once and kept in the documents bucket, then
 * served from there. What an invoice says never changes after it is issued (payments, sending and
 * voiding change its state, not its content), so the invoice as issued has one document version;
 * once payments exist, the download shows them (BT-113 prepaid amount, the amount due after it)
 * as a document of its own beside it, one per amount paid, so the one as issued is never replaced.
 *
 * The same machinery serves every document drawn as an `InvoiceDocument`: a credit note
 * (shared/credit-notes/documents.ts) gives its own keys, names and document (`DocumentSource`).
 *
 * The renderers (pdfkit, the e-invoice library, the embedded font) are imported on first need
 * only: a download served from the bucket never evaluates them.
 */
import type { Tenant } from '#shared/auth/principal';
import { invoiceKeys } from '#shared/db/keys';
import { documentLine } from './billed-lines';
import type { InvoiceDocument } from './document';
import { isStored, presignedGet, readStored, store } from './document-store';
import type { InvoiceRecord } from './stored';

export type XmlSyntax = 'cii' | 'ubl';
export type DocumentKind = 'pdf' | XmlSyntax;

/** Raised if the layout of issued invoices ever had to change: old objects stay as they were served. */
const DOCUMENT_VERSION = 1;

export const contentTypes: Record<DocumentKind, string> = { pdf: 'application/pdf', cii: 'application/xml', ubl: 'application/xml' };

const invoiceFiles = { pdf: 'invoice.pdf', cii: 'invoice-cii.xml', ubl: 'invoice-ubl.xml' } as const;

/** A file name for a document numbered `number` (the PDF `<number>.pdf`, the XML `<number>-<syntax>.xml`). */
export const documentFilename = (number: string, kind: DocumentKind): string =>
  kind === 'pdf' ? `${number}.pdf` : `${number}-${kind}.xml`;
export const pdfFilename = (invoice: Pick<InvoiceRecord, 'invoice_number'>): string => documentFilename(invoice.invoice_number, 'pdf');
export const xmlFilename = (invoice: Pick<InvoiceRecord, 'invoice_number'>, syntax: XmlSyntax): string =>
  documentFilename(invoice.invoice_number, syntax);

/** One document's renderings: where each is stored, its file name, and what it is drawn from. */
export interface DocumentSource {
  key: (kind: DocumentKind) => string;
  filename: (kind: DocumentKind) => string;
  document: () => InvoiceDocument;
}

/**
 * What the renderers need, from the stored invoice (money stays in minor units): as issued
 * (`asIssued`, nothing paid), or with what is paid so far as the prepaid amount (BT-113) and the
 * amount due after it (BR-CO-16). Credit notes are documents of their own: the invoice's XML
 * does not subtract them.
 */
export function invoiceDocumentOf(tenant: Tenant, invoice: InvoiceRecord, asIssued = false): InvoiceDocument {
  const { seller, customer } = invoice;
  const paid = asIssued ? 0 : invoice.amount_paid;
  return {
    type_code: '380',
    invoice_number: invoice.invoice_number,
    preceding_invoice: null,
    test_mode: tenant.mode === 'test',
    currency: invoice.currency,
    issue_date: invoice.issued_at.slice(0, 10),
    due_date: invoice.due_date,
    service_date: invoice.service_date,
    order_number: invoice.order_number,
    seller: {
      legal_name: seller.legal_name,
      address: seller.address,
      vat_id: seller.vat_id,
      tax_number: seller.tax_number,
      iban: seller.iban,
      bic: seller.bic,
      email: seller.email,
      phone: seller.phone,
      payment_terms_days: seller.payment_terms_days,
      footer: seller.footer,
    },
    buyer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      company: customer.company,
      vat_id: invoice.customer_vat_id ?? customer.vat_id,
      buyer_reference: customer.buyer_reference,
      address: customer.billing_address,
    },
    lines: invoice.items.map(documentLine),
    shipping: invoice.shipping,
    shipping_tax_category: invoice.shipping_tax_category,
    shipping_tax_rate: invoice.shipping_tax_rate,
    subtotal: invoice.subtotal + invoice.shipping,
    tax_breakdown: invoice.taxes.map((entry) => ({
      category: entry.category,
      tax_rate: entry.rate,
      taxable_amount: entry.taxable_amount,
      tax_amount: entry.tax_amount,
    })),
    tax: invoice.tax,
    total: invoice.total,
    amount_paid: paid,
    amount_due: invoice.total - paid,
    notes: invoice.notes,
  };
}

/** The invoice's documents: as issued while nothing is paid, else those showing the amount paid (`asIssued` forces the first). */
export function invoiceSource(tenant: Tenant, invoice: InvoiceRecord, asIssued = false): DocumentSource {
  const paid = asIssued ? 0 : invoice.amount_paid;
  return {
    key: (kind) =>
      paid > 0
        ? invoiceKeys.paidDocument(tenant, invoice.id, DOCUMENT_VERSION, paid, invoiceFiles[kind])
        : invoiceKeys.document(tenant, invoice.id, DOCUMENT_VERSION, invoiceFiles[kind]),
    filename: (kind) => documentFilename(invoice.invoice_number, kind),
    document: () => invoiceDocumentOf(tenant, invoice, paid === 0),
  };
}

/** Renders a document (the renderers are loaded here, on first need). */
async function render(source: DocumentSource, kind: DocumentKind): Promise<Uint8Array> {
  const renderers = await import('./rendering/e-invoice');
  const document = source.document();
  if (kind === 'pdf') return renderers.renderFacturXPdf(document);
  return new TextEncoder().encode(await renderers.renderEInvoiceXml(document, kind));
}

export interface StoredDocument {
  bytes: Uint8Array;
  contentType: string;
  filename: string;
  /** False when this call rendered it. */
  cached: boolean;
}

/**
 * The document, from the bucket or rendered and stored now. Two first downloads at the same time
 * both render and store the same content: harmless, and cheaper than a lock.
 */
export async function storedDocument(source: DocumentSource, kind: DocumentKind): Promise<StoredDocument> {
  const key = source.key(kind);
  const contentType = contentTypes[kind];
  const filename = source.filename(kind);
  const stored = await readStored(key);
  if (stored) return { bytes: stored, contentType, filename, cached: true };
  const bytes = await render(source, kind);
  await store(key, bytes, contentType, filename);
  return { bytes, contentType, filename, cached: false };
}

export const invoiceDocument = (tenant: Tenant, invoice: InvoiceRecord, kind: DocumentKind): Promise<StoredDocument> =>
  storedDocument(invoiceSource(tenant, invoice), kind);

/**
 * Renders again every document of the invoice that the bucket holds (as issued, and showing the
 * amount paid now), and stores it over the old one: for documents drawn from text stored before
 * input refused what XML 1.0 cannot hold, which the renderers now draw as U+FFFD (`npm run
 * documents -- rerender`, docs/invoices-rendering.md). Documents never downloaded are left to
 * their first download. Answers the kinds stored again.
 */
export async function rerenderStoredDocuments(tenant: Tenant, invoice: InvoiceRecord): Promise<DocumentKind[]> {
  const kinds = Object.keys(contentTypes) as DocumentKind[];
  const sources = [invoiceSource(tenant, invoice, true), ...(invoice.amount_paid > 0 ? [invoiceSource(tenant, invoice)] : [])];
  const again = new Set<DocumentKind>();
  for (const source of sources) {
    const stored = await Promise.all(kinds.map((kind) => isStored(source.key(kind))));
    for (const kind of kinds.filter((_, index) => stored[index])) {
      await store(source.key(kind), await render(source, kind), contentTypes[kind], source.filename(kind));
      again.add(kind);
    }
  }
  return kinds.filter((kind) => again.has(kind));
}

/** A presigned GET URL of the source's PDF (rendered first if it is not stored yet), valid PRESIGNED_URL_SECONDS. */
export async function presignedSourcePdf(
  source: DocumentSource,
  now = new Date(),
): Promise<{ url: string; expires_at: string; filename: string }> {
  const key = source.key('pdf');
  const filename = source.filename('pdf');
  if (!(await isStored(key))) await store(key, await render(source, 'pdf'), contentTypes.pdf, filename);
  return presignedGet(key, contentTypes.pdf, filename, now);
}

export const presignedPdf = (
  tenant: Tenant,
  invoice: InvoiceRecord,
  now = new Date(),
): Promise<{ url: string; expires_at: string; filename: string }> => presignedSourcePdf(invoiceSource(tenant, invoice), now);

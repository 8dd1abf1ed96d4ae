/**
 * An invoice's documents — the PDF (a ZUGFeRD / Factur-X hybrid with the CII XML inside) and the
 * XRechnung XML in CII and UBL syntax — rendered once and kept in the documents bucket, then
 * served from there. What an invoice says never changes after it is issued (payments, sending and
 * voiding change its state, not its content), so each invoice has one document version.
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

/** Raised if the layout of issued invoices ever had to change: old objects stay as they were served. */
const DOCUMENT_VERSION = 1;

export type XmlSyntax = 'cii' | 'ubl';

const files = {
  pdf: { file: 'invoice.pdf', contentType: 'application/pdf' },
  cii: { file: 'invoice-cii.xml', contentType: 'application/xml' },
  ubl: { file: 'invoice-ubl.xml', contentType: 'application/xml' },
} as const;

export const pdfFilename = (invoice: Pick<InvoiceRecord, 'invoice_number'>): string => `${invoice.invoice_number}.pdf`;
export const xmlFilename = (invoice: Pick<InvoiceRecord, 'invoice_number'>, syntax: XmlSyntax): string =>
  `${invoice.invoice_number}-${syntax}.xml`;

/** What the renderers need, from the stored invoice (money stays in minor units). */
export function invoiceDocumentOf(tenant: Tenant, invoice: InvoiceRecord): InvoiceDocument {
  const { seller, customer } = invoice;
  return {
    invoice_number: invoice.invoice_number,
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
    // The document is the invoice as issued: payments are the invoice's state, not its content.
    amount_paid: 0,
    amount_due: invoice.total,
    notes: invoice.notes,
  };
}

const keyOf = (tenant: Tenant, invoice: InvoiceRecord, kind: keyof typeof files) =>
  invoiceKeys.document(tenant, invoice.id, DOCUMENT_VERSION, files[kind].file);

/** Renders a document of the invoice (the renderers are loaded here, on first need). */
async function render(tenant: Tenant, invoice: InvoiceRecord, kind: keyof typeof files): Promise<Uint8Array> {
  const renderers = await import('./rendering/e-invoice');
  const document = invoiceDocumentOf(tenant, invoice);
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
export async function invoiceDocument(tenant: Tenant, invoice: InvoiceRecord, kind: 'pdf' | XmlSyntax): Promise<StoredDocument> {
  const key = keyOf(tenant, invoice, kind);
  const { contentType } = files[kind];
  const filename = kind === 'pdf' ? pdfFilename(invoice) : xmlFilename(invoice, kind);
  const stored = await readStored(key);
  if (stored) return { bytes: stored, contentType, filename, cached: true };
  const bytes = await render(tenant, invoice, kind);
  await store(key, bytes, contentType, filename);
  return { bytes, contentType, filename, cached: false };
}

/**
 * Renders again every document of the invoice that the bucket holds, and stores it over the old
 * one: for documents drawn from text stored before input refused what XML 1.0 cannot hold, which
 * the renderers now draw as U+FFFD (`npm run documents -- rerender`, docs/invoices-rendering.md).
 * Documents never downloaded are left to their first download. Answers the kinds stored again.
 */
export async function rerenderStoredDocuments(tenant: Tenant, invoice: InvoiceRecord): Promise<(keyof typeof files)[]> {
  const kinds = Object.keys(files) as (keyof typeof files)[];
  const stored = await Promise.all(kinds.map((kind) => isStored(keyOf(tenant, invoice, kind))));
  const again = kinds.filter((_, index) => stored[index]);
  for (const kind of again) {
    const filename = kind === 'pdf' ? pdfFilename(invoice) : xmlFilename(invoice, kind);
    await store(keyOf(tenant, invoice, kind), await render(tenant, invoice, kind), files[kind].contentType, filename);
  }
  return again;
}

/** A presigned GET URL of the PDF (rendered first if it is not stored yet), valid PRESIGNED_URL_SECONDS. */
export async function presignedPdf(
  tenant: Tenant,
  invoice: InvoiceRecord,
  now = new Date(),
): Promise<{ url: string; expires_at: string; filename: string }> {
  const key = keyOf(tenant, invoice, 'pdf');
  const filename = pdfFilename(invoice);
  if (!(await isStored(key))) await store(key, await render(tenant, invoice, 'pdf'), files.pdf.contentType, filename);
  return presignedGet(key, files.pdf.contentType, filename, now);
}

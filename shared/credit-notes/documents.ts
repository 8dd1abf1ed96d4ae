/**
 * A credit note's documents — the Factur-X PDF and the XRechnung XML (CII, UBL) with type code 381
 * and the corrected invoice as BT-25/BT-26 — drawn by the invoice renderers from an
 * `InvoiceDocument` and stored and served by the invoice documents' machinery
 * (shared/invoices/documents.ts), under the credit note's own keys. Amounts are positive, as EN
 * 16931 wants for 381: what is credited.
 */
import type { Tenant } from '#shared/auth/principal';
import { creditNoteKeys } from '#shared/db/keys';
import type { InvoiceDocument } from '#shared/invoices/document';
import {
  documentFilename,
  presignedSourcePdf,
  storedDocument,
  type DocumentKind,
  type DocumentSource,
  type StoredDocument,
} from '#shared/invoices/documents';
import type { CreditNoteRecord } from './stored';

const DOCUMENT_VERSION = 1;
const files = { pdf: 'credit-note.pdf', cii: 'credit-note-cii.xml', ubl: 'credit-note-ubl.xml' } as const;

/** What the renderers need, from the stored credit note (money in minor units). */
export function creditNoteDocumentOf(tenant: Tenant, note: CreditNoteRecord): InvoiceDocument {
  const issueDate = note.issued_at.slice(0, 10);
  const { seller, customer } = note;
  return {
    type_code: '381',
    invoice_number: note.credit_note_number,
    preceding_invoice: { number: note.invoice_number, issue_date: note.invoice_issue_date },
    test_mode: tenant.mode === 'test',
    currency: note.currency,
    issue_date: issueDate,
    due_date: issueDate,
    service_date: note.service_date,
    order_number: note.order_number,
    seller: { ...seller },
    buyer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      company: customer.company,
      vat_id: customer.vat_id,
      buyer_reference: customer.buyer_reference,
      address: customer.billing_address,
    },
    lines: note.items.map((line) => ({
      position: line.position,
      description: line.description,
      quantity: line.quantity,
      unit_price: line.unit_price,
      tax_category: line.tax_category,
      tax_rate: line.tax_rate,
      exemption_reason: line.tax_exemption_reason,
      net_amount: line.amount,
    })),
    shipping: note.shipping,
    shipping_tax_category: note.shipping_tax_category,
    shipping_tax_rate: note.shipping_tax_rate,
    subtotal: note.subtotal + note.shipping,
    tax_breakdown: note.taxes.map((group) => ({
      category: group.category,
      tax_rate: group.rate,
      taxable_amount: group.taxable_amount,
      tax_amount: group.tax_amount,
    })),
    tax: note.tax,
    total: note.total,
    amount_paid: 0,
    amount_due: note.total,
    notes: `Reason: ${note.reason}`,
  };
}

export const creditNoteSource = (tenant: Tenant, note: CreditNoteRecord): DocumentSource => ({
  key: (kind) => creditNoteKeys.document(tenant, note.id, DOCUMENT_VERSION, files[kind]),
  filename: (kind) => documentFilename(note.credit_note_number, kind),
  document: () => creditNoteDocumentOf(tenant, note),
});

export const creditNoteDocument = (tenant: Tenant, note: CreditNoteRecord, kind: DocumentKind): Promise<StoredDocument> =>
  storedDocument(creditNoteSource(tenant, note), kind);

export const presignedCreditNotePdf = (tenant: Tenant, note: CreditNoteRecord, now = new Date()) =>
  presignedSourcePdf(creditNoteSource(tenant, note), now);

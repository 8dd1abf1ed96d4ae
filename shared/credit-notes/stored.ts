/**
 * How credit notes are stored (docs/invoices.md, "Credit notes"). A credit note is one item in its
 * own partition, listed newest first on gsi1 with a counter for the total. Everything it says — its
 * number, the invoice it corrects, the parties (the invoice's), lines and amounts — is fixed when
 * it is issued; only its refunds move.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, creditNoteKeys } from '#shared/db/keys';
import { adjustTotal } from '#shared/db/totals';
import { tableName, type TransactItem } from '#shared/db/table';
import { versionedUpdate } from '#shared/db/update-expression';
import { customer, seller } from '#shared/invoices/stored';
import { appliedTaxCategoryCodec, taxesCodec } from '#shared/tax/fields';
import { PAYMENT_METHODS } from '#shared/invoices/status';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';

/** A refund list stays bounded, like an invoice's payments. */
export const MAX_REFUNDS = 100;

const line = /* @__PURE__ */ (() =>
  c.object(
    {
      position: field(c.int).describe('1, 2, … within the credit note'),
      invoice_position: field(c.int).describe('The invoice line it credits'),
      description: field(c.string),
      quantity: field(c.number).describe('Quantity credited (1 for an amount credited without a quantity)', 2),
      unit_price: field(c.money).describe('Net'),
      tax_category: field(appliedTaxCategoryCodec).describe("The invoice line's applied tax category"),
      tax_rate: field(c.number).describe("Percent (the invoice line's)", 19),
      tax_exemption_reason: field(c.nullable(c.string)).describe("The invoice line's exemption reason (exempt only)"),
      amount: field(c.money).describe('Net amount credited'),
      quantity_credited: field(c.number).describe("What this credits of the invoice line's quantity (0 for an amount without a quantity)"),
    },
    { id: 'CreditNoteLine' },
  ))();

const refund = /* @__PURE__ */ (() =>
  c.object(
    {
      id: field(c.int).describe('1, 2, … within the credit note'),
      amount: field(c.money),
      method: field(c.enumOf(PAYMENT_METHODS)),
      reference: field(c.nullable(c.string)),
      refunded_at: field(c.timestamp).describe('When the money went out (as given; the recording time by default)'),
      recorded_at: field(c.timestamp),
    },
    { id: 'CreditNoteRefund' },
  ))();

export const storedCreditNote = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    credit_note_number: field(c.string).fixed().describe('Yearly, per tenant and mode, without gaps', 'CN-2026-000003'),
    invoice_id: field(c.int).fixed(),
    invoice_number: field(c.string).fixed().describe('The corrected invoice (BT-25)', 'INV-2026-000017'),
    invoice_issue_date: field(c.string).fixed().describe('YYYY-MM-DD: its issue date (BT-26)'),
    order_id: field(c.nullable(c.int)).fixed(),
    order_number: field(c.nullable(c.string)).fixed(),
    reason: field(c.string).fixed().describe('Why the invoice is corrected (printed and in the e-invoice note)'),
    customer: field(customer).fixed(),
    seller: field(seller).fixed(),
    items: field(c.list(line)).fixed(),
    subtotal: field(c.money).fixed().describe('Σ item amounts'),
    shipping: field(c.money).fixed().describe('Net shipping credited'),
    shipping_tax_category: field(appliedTaxCategoryCodec).fixed().describe("The invoice's shipping category"),
    shipping_tax_rate: field(c.number).fixed(),
    taxes: field(taxesCodec)
      .fixed()
      .describe("Per category and rate: the invoice's tax in proportion to the amount credited in that group; tax = Σ tax_amount"),
    tax: field(c.money).fixed().describe('Σ taxes[].tax_amount'),
    total: field(c.money).fixed().describe('subtotal + shipping + tax: what the invoice is credited'),
    currency: field(c.string).fixed().describe('ISO 4217', 'EUR'),
    service_date: field(c.string).fixed().describe("YYYY-MM-DD: the invoice's"),
    amount_refunded: field(c.money).describe('Σ refunds'),
    refunds: field(c.list(refund)),
    issued_at: field(c.timestamp).fixed(),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().describe('Raised by every refund'),
  }))();

export type CreditNoteRecord = RecordOf<typeof storedCreditNote.shape>;
export type CreditNoteLineRecord = CreditNoteRecord['items'][number];

export const creditNoteFromItem = (item: Record<string, unknown>): CreditNoteRecord => storedCreditNote.read(item);

export const CREDIT_NOTES = 'credit_notes';

/** The credit note item (in the list of all, newest first) and the tenant's count. */
export function creditNoteCreation(tenant: Tenant, note: CreditNoteRecord): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...creditNoteKeys.creditNote(tenant, note.id),
          entity: 'CREDIT_NOTE',
          ...storedCreditNote.attributes(note, 'put'),
          gsi1pk: creditNoteKeys.collection(tenant),
          gsi1sk: createdSortKey(note.created_at, note.id),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    adjustTotal(tenant, CREDIT_NOTES, 1),
  ];
}

/** The update of the credit note from `before` to `after` (a refund), conditional on the version read. */
export const creditNoteUpdate = (tenant: Tenant, before: CreditNoteRecord, after: CreditNoteRecord): TransactItem =>
  versionedUpdate(creditNoteKeys.creditNote(tenant, before.id), storedCreditNote.attributes(after, 'update'), before.version);

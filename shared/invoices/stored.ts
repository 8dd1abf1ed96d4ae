/**
 * How invoices are stored (see docs/data-model.md and docs/invoices.md).
 *
 * The invoice item's two index slots give "all invoices" (gsi1) and "of one status" (gsi2),
 * newest first. List entries in the invoice's partition give the further lists: a customer's
 * (and a customer's of one status), an order's, all by due date, and the unpaid ones by due date
 * (the entry exists only while the invoice is open or sent). Everything an invoice says — its
 * number, parties, lines and amounts — is fixed when it is issued; only the payment state moves.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, dueSortKey, invoiceKeys } from '#shared/db/keys';
import { adjustTotal } from '#shared/db/totals';
import { tableName, type TransactItem } from '#shared/db/table';
import { versionedUpdate } from '#shared/db/update-expression';
import { postalAddressShape } from '#shared/schemas/address';
import { appliedTaxCategoryCodec, taxesCodec, taxTreatmentCodec, vatValidationCodec } from '#shared/tax/fields';
import { EXEMPTION_REASON } from './exemption';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import { INVOICE_STATUSES, PAYMENT_METHODS, isUnpaid, type InvoiceStatus } from './status';

/** A payment list stays bounded (an invoice paid in more instalments than this is not one invoice). */
export const MAX_PAYMENTS = 100;

const invoiceAddress = /* @__PURE__ */ (() => c.object(postalAddressShape, { id: 'InvoiceAddress' }))();

const line = /* @__PURE__ */ (() =>
  c.object(
    {
      position: field(c.int).describe('1, 2, …'),
      description: field(c.string),
      quantity: field(c.number).describe('Up to 3 decimals', 2),
      unit_price: field(c.money).describe('Net'),
      tax_category: field(appliedTaxCategoryCodec).describe(
        'As charged (the VAT category code of the e-invoice follows from it)',
        'standard',
      ),
      tax_rate: field(c.number).describe('Percent', 19),
      tax_exemption_reason: field(c.nullable(c.string)).describe('Why it is exempt (tax_category exempt only)'),
      amount: field(c.money).describe('Net: quantity × unit_price rounded half-up (order lines: the line total, setup fee included)'),
      order_item_id: field(c.nullable(c.int)).describe('The order line it bills'),
    },
    { id: 'InvoiceLine' },
  ))();

export const taxGroup = /* @__PURE__ */ (() =>
  c.object(
    {
      tax_rate: field(c.number).describe('Percent', 19),
      taxable_amount: field(c.money).describe('Net amount at this rate, shipping included'),
      tax: field(c.money).describe('taxable_amount × rate, rounded half-up once'),
    },
    { id: 'InvoiceTaxGroup', description: 'Deprecated: the groups of taxes merged per rate; read taxes' },
  ))();

const payment = /* @__PURE__ */ (() =>
  c.object(
    {
      id: field(c.int).describe('1, 2, … within the invoice'),
      amount: field(c.money),
      method: field(c.enumOf(PAYMENT_METHODS)),
      reference: field(c.nullable(c.string)).describe('Bank reference, card transaction id…'),
      paid_at: field(c.timestamp).describe('When the money arrived (as given; the recording time by default)'),
      recorded_at: field(c.timestamp),
    },
    { id: 'InvoicePayment' },
  ))();

const creditedLine = /* @__PURE__ */ (() =>
  c.object(
    {
      position: field(c.int).describe('The invoice line (its position)'),
      quantity: field(c.number).describe('Quantity credited so far'),
      amount: field(c.money).describe('Net amount credited so far'),
    },
    { id: 'InvoiceCreditedLine' },
  ))();

const creditNoteRef = /* @__PURE__ */ (() =>
  c.object(
    {
      id: field(c.int),
      credit_note_number: field(c.string).describe('', 'CN-2026-000003'),
      total: field(c.money).describe('Gross amount credited'),
      issued_at: field(c.timestamp),
    },
    { id: 'InvoiceCreditNoteRef' },
  ))();

export const seller = /* @__PURE__ */ (() =>
  c.object(
    {
      legal_name: field(c.string),
      address: field(invoiceAddress),
      vat_id: field(c.nullable(c.string)),
      tax_number: field(c.nullable(c.string)),
      iban: field(c.nullable(c.string)),
      bic: field(c.nullable(c.string)),
      email: field(c.string),
      phone: field(c.nullable(c.string)),
      payment_terms_days: field(c.int),
      footer: field(c.nullable(c.string)),
    },
    { id: 'InvoiceSeller', description: "The account's company details when the invoice was issued" },
  ))();

export const customer = /* @__PURE__ */ (() =>
  c.object(
    {
      id: field(c.int),
      name: field(c.string),
      email: field(c.string),
      company: field(c.nullable(c.string)),
      vat_id: field(c.nullable(c.string)),
      buyer_reference: field(c.nullable(c.string)).describe('Leitweg-ID or other buyer reference (XRechnung BT-10)'),
      billing_address: field(c.nullable(invoiceAddress)),
    },
    { id: 'InvoiceCustomer', description: 'As at issue time: later edits of the customer do not change it' },
  ))();

export const storedInvoice = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    invoice_number: field(c.string).fixed().describe('Yearly, per tenant and mode, without gaps', 'INV-2026-000017'),
    order_id: field(c.nullable(c.int)).fixed(),
    order_number: field(c.nullable(c.string)).fixed(),
    status: field(c.enumOf(INVOICE_STATUSES)),
    overdue: field(c.boolean).derived().describe('Unpaid (open or sent) and past due_date; computed when read'),
    customer: field(customer).fixed(),
    seller: field(seller).fixed(),
    items: field(c.list(line)).fixed(),
    subtotal: field(c.money).fixed().describe('Σ item amounts'),
    shipping: field(c.money).fixed(),
    shipping_tax_category: field(appliedTaxCategoryCodec).fixed().describe('The category shipping is charged as', 'standard'),
    shipping_tax_rate: field(c.number).fixed(),
    tax_rate: field(c.nullable(c.number)).fixed().describe('The one tax rate of all items and shipping; null when they differ'),
    tax_treatment: field(taxTreatmentCodec)
      .fixed()
      .describe("domestic, eu_reverse_charge, export or eu_consumer: the order's, or derived when issued without one", 'domestic'),
    tax_treatment_warning: field(c.nullable(c.string)).fixed().describe('Why the derived treatment may be wrong; null when sure'),
    customer_vat_id: field(c.nullable(c.string))
      .fixed()
      .describe("The customer's VAT ID when issued (the e-invoice's BT-48)", 'ATU10000005'),
    vat_validation: field(c.nullable(vatValidationCodec))
      .fixed()
      .describe('The VIES check of customer_vat_id the reverse charge relied on (eu_reverse_charge only); null otherwise'),
    taxes: field(taxesCodec).fixed().describe('The breakdown per category and rate, shipping included; tax = Σ tax_amount'),
    tax_breakdown: field(c.list(taxGroup)).fixed().describe('Deprecated in favour of taxes: the same amounts per rate'),
    tax: field(c.money).fixed(),
    total: field(c.money).fixed().describe('subtotal + shipping + tax'),
    amount_paid: field(c.money),
    amount_due: field(c.money).describe('total − amount_paid − amount_credited, never below 0'),
    amount_credited: field(c.money).describe('Σ the totals of its credit notes'),
    amount_refunded: field(c.money).describe('Σ the refunds recorded against its credit notes'),
    refund_due: field(c.money)
      .derived()
      .describe(
        'Paid beyond what is owed after its credit notes, not refunded yet: max(0, amount_paid + amount_credited − total) − amount_refunded',
      ),
    credited_items: field(c.list(creditedLine)).describe('What its credit notes credited of each line (lines never credited are left out)'),
    shipping_credited: field(c.money).describe('Net shipping credited so far'),
    credit_notes: field(c.list(creditNoteRef)).describe('Its credit notes, oldest first'),
    currency: field(c.string).fixed().describe('ISO 4217', 'EUR'),
    notes: field(c.nullable(c.string)).fixed(),
    issued_at: field(c.timestamp).fixed(),
    due_date: field(c.string).fixed().describe('YYYY-MM-DD: issue date + due days', '2026-12-08'),
    service_date: field(c.string).fixed().describe('YYYY-MM-DD: delivery or service date (the issue date unless known)'),
    sent_at: field(c.nullable(c.timestamp)).describe('First sending'),
    last_sent_at: field(c.nullable(c.timestamp)),
    paid_at: field(c.nullable(c.timestamp)),
    voided_at: field(c.nullable(c.timestamp)),
    payments: field(c.list(payment)),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().describe('Raised by every change (payments, credit notes, refunds, sending, voiding)'),
  }))();

export type InvoiceRecord = RecordOf<typeof storedInvoice.shape>;
export type InvoiceLineRecord = InvoiceRecord['items'][number];
export type InvoicePaymentRecord = InvoiceRecord['payments'][number];
export type InvoiceCustomerRecord = InvoiceRecord['customer'];
export type InvoiceSellerRecord = InvoiceRecord['seller'];
export type InvoiceCreditedLineRecord = InvoiceRecord['credited_items'][number];

/** A credit note list stays bounded like the payment list. */
export const MAX_CREDIT_NOTES = 100;

// A function, not `storedInvoice.read`: a property read at the top level keeps the entity in every bundle importing this module.
export const invoiceFromItem = (item: Record<string, unknown>): InvoiceRecord => withStoredTax(storedInvoice.read(item), item);

/**
 * An invoice issued before tax categories: its lines and shipping are standard at their rate
 * (exempt at 0 %, as its documents said), its breakdown its per-rate groups.
 */
function withStoredTax(invoice: InvoiceRecord, item: Record<string, unknown>): InvoiceRecord {
  if (item.taxes !== undefined) return invoice;
  const category = (rate: number) => (rate > 0 ? ('standard' as const) : ('exempt' as const));
  return {
    ...invoice,
    items: invoice.items.map((line) => ({
      ...line,
      tax_category: category(line.tax_rate),
      tax_exemption_reason: line.tax_rate > 0 ? null : EXEMPTION_REASON,
    })),
    shipping_tax_category: category(invoice.shipping_tax_rate),
    customer_vat_id: invoice.customer.vat_id,
    taxes: invoice.tax_breakdown.map((group) => ({
      category: category(group.tax_rate),
      rate: group.tax_rate,
      taxable_amount: group.taxable_amount,
      tax_amount: group.tax,
    })),
  };
}

export const INVOICES = 'invoices';
export const invoiceStatusCounter = (status: InvoiceStatus): string => `${INVOICES}:${status}`;

const entry = (key: { pk: string; sk: string }, entityName: string, invoiceId: number, indexes: Record<string, string>): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...key, entity: entityName, invoice_id: invoiceId, ...indexes } },
});

/** The invoice item with its list entries and counters: what a create writes besides the number, the order mark and the event. */
export function invoiceCreation(tenant: Tenant, invoice: InvoiceRecord): TransactItem[] {
  const created = createdSortKey(invoice.created_at, invoice.id);
  const due = dueSortKey(invoice.due_date, invoice.created_at, invoice.id);
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...invoiceKeys.invoice(tenant, invoice.id),
          entity: 'INVOICE',
          ...storedInvoice.attributes(invoice, 'put'),
          customer_id: invoice.customer.id,
          gsi1pk: invoiceKeys.collection(tenant),
          gsi1sk: created,
          gsi2pk: invoiceKeys.byStatus(tenant, invoice.status),
          gsi2sk: created,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    entry(invoiceKeys.listEntry(tenant, invoice.id, 'CUSTOMER'), 'INVOICE_LIST_ENTRY', invoice.id, {
      gsi1pk: invoiceKeys.ofCustomer(tenant, invoice.customer.id),
      gsi1sk: created,
      gsi2pk: invoiceKeys.ofCustomerByStatus(tenant, invoice.customer.id, invoice.status),
      gsi2sk: created,
    }),
    entry(invoiceKeys.listEntry(tenant, invoice.id, 'DUE'), 'INVOICE_LIST_ENTRY', invoice.id, {
      gsi1pk: invoiceKeys.byDueDate(tenant),
      gsi1sk: due,
    }),
    entry(invoiceKeys.listEntry(tenant, invoice.id, 'UNPAID'), 'INVOICE_LIST_ENTRY', invoice.id, {
      gsi1pk: invoiceKeys.unpaidByDueDate(tenant),
      gsi1sk: due,
    }),
    adjustTotal(tenant, INVOICES, 1),
    adjustTotal(tenant, invoiceStatusCounter(invoice.status), 1),
  ];
  if (invoice.order_id !== null) {
    items.push(
      entry(invoiceKeys.listEntry(tenant, invoice.id, 'ORDER'), 'INVOICE_LIST_ENTRY', invoice.id, {
        gsi1pk: invoiceKeys.ofOrder(tenant, invoice.order_id),
        gsi1sk: created,
      }),
    );
  }
  return items;
}

/** The order's mark of its one invoice that is not void; the put fails while another exists. */
export function orderInvoiceMarkPut(tenant: Tenant, orderId: number, invoice: Pick<InvoiceRecord, 'id' | 'invoice_number'>): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...invoiceKeys.orderInvoice(tenant, orderId),
        entity: 'ORDER_INVOICE',
        invoice_id: invoice.id,
        invoice_number: invoice.invoice_number,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function orderInvoiceMarkDelete(tenant: Tenant, orderId: number, invoiceId: number): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: invoiceKeys.orderInvoice(tenant, orderId),
      ConditionExpression: 'invoice_id = :invoice',
      ExpressionAttributeValues: { ':invoice': invoiceId },
    },
  };
}

/**
 * The update of the invoice item from `before` to `after`, conditional on the version that was
 * read; a status change also moves the item's status list, the customer entry's, the counters,
 * and removes the unpaid entry when the invoice leaves open/sent.
 */
export function invoiceUpdate(
  tenant: Tenant,
  before: InvoiceRecord,
  after: InvoiceRecord,
  also?: Parameters<typeof versionedUpdate>[3],
): TransactItem[] {
  const items: TransactItem[] = [
    versionedUpdate(
      invoiceKeys.invoice(tenant, before.id),
      { ...storedInvoice.attributes(after, 'update'), gsi2pk: invoiceKeys.byStatus(tenant, after.status) },
      before.version,
      also,
    ),
  ];
  if (before.status === after.status) return items;
  items.push(
    {
      Update: {
        TableName: tableName(),
        Key: invoiceKeys.listEntry(tenant, before.id, 'CUSTOMER'),
        UpdateExpression: 'SET gsi2pk = :partition',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':partition': invoiceKeys.ofCustomerByStatus(tenant, before.customer.id, after.status) },
      },
    },
    adjustTotal(tenant, invoiceStatusCounter(before.status), -1),
    adjustTotal(tenant, invoiceStatusCounter(after.status), 1),
  );
  if (isUnpaid(before.status) && !isUnpaid(after.status)) {
    items.push({ Delete: { TableName: tableName(), Key: invoiceKeys.listEntry(tenant, before.id, 'UNPAID') } });
  }
  return items;
}

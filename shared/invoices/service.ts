/**
 * Issuing and reading invoices (payments, voiding: payments.ts; sending: sending.ts). An invoice
 * copies everything it says when it is issued — the seller from the account's company details,
 * the customer and billing address, the lines and amounts from the order or from the request — and
 * takes the next gap-free number in the same transaction (numbering.ts).
 */
import type { InvoicingCompany } from '#shared/accounts/company';
import { requireSeller, type SellerBlock } from '#shared/accounts/seller';
import type { Tenant } from '#shared/auth/principal';
import { readCustomer, readCustomerWithAddresses } from '#shared/customers/repository';
import { nextId } from '#shared/db/counters';
import { sizeProblem } from '#shared/db/item-size';
import { ConflictError, ValidationError } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { eventPut } from '#shared/events/outbox';
import type { OrderRecord } from '#shared/orders/stored';
import { orderInvoiceableCheck } from '#shared/orders/transitions';
import { formatInvoiceNumber, withInvoiceNumber } from './numbering';
import * as repo from './repository';
import type { CustomerInvoicesQuery, InvoiceCreateInput, InvoiceListQuery } from './schema';
import { invoiceCreated } from './events';
import { present, today, type Invoice } from './present';
import {
  invoiceCreation,
  orderInvoiceMarkPut,
  type InvoiceCustomerRecord,
  type InvoiceLineRecord,
  storedInvoice,
  type InvoiceRecord,
} from './stored';
import { billedLines } from './billed-lines';
import { accountTaxSettings } from '#shared/accounts/tax';
import { customerTaxProfile } from '#shared/customers/tax-profile';
import { shippingTaxOf, type ShippingTax } from '#shared/orders/lines';
import { vatValidationOf, type VatValidationRecord } from '#shared/tax/fields';
import type { CustomerTaxProfile } from '#shared/tax/profile';
import { lineTax, saleTreatment, type SaleTaxSettings } from '#shared/tax/sale';
import { exemptionProblems } from '#shared/tax/exemption';
import type { TaxTreatmentDecision } from '#shared/tax/treatment';
import { invoiceTotals, lineAmount, lineAmountProblems } from './totals';

const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

interface Seller {
  company: InvoicingCompany;
  seller: SellerBlock;
  currency: string;
  tax: SaleTaxSettings;
}

/** The seller block and the account's currency and tax rates (422 naming missing company fields, checked before anything else is read). */
async function sellerOf(tenant: Tenant): Promise<Seller> {
  const { account, company, seller } = await requireSeller(tenant.accountId, 'an invoice');
  return { company, seller, currency: account.currency, tax: accountTaxSettings(account) };
}

interface Draft {
  order: OrderRecord | null;
  customer: InvoiceCustomerRecord;
  items: InvoiceLineRecord[];
  shipping: ShippingTax;
  currency: string;
  serviceDate: string | null;
  treatment: TaxTreatmentDecision;
  customerVatId: string | null;
  vatValidation: VatValidationRecord | null;
}

/** The customer's VAT ID an invoice shows, and the VIES check it copies when the reverse charge relied on it. */
function vatOf(profile: CustomerTaxProfile, recordVatId: string | null, treatment: TaxTreatmentDecision) {
  const vatValidation =
    treatment.treatment === 'eu_reverse_charge' && profile.vat_validation ? vatValidationOf(profile.vat_validation) : null;
  return { customerVatId: profile.vat_id ?? recordVatId, vatValidation };
}

async function draftFromOrder(tenant: Tenant, orderId: number, buyerReference: string | null): Promise<Draft> {
  const { order, marked } = await repo.readOrderToInvoice(tenant, orderId);
  if (order.status === 'pending' || order.status === 'cancelled') {
    throw new ConflictError(`Order ${order.order_number} is ${order.status}: only confirmed orders can be invoiced`);
  }
  if (marked)
    throw new ConflictError(`Order ${order.order_number} already has invoice ${marked.invoice_number} (void it to issue another)`);
  // The order keeps the customer's name and email; company and VAT ID come from the record, if it still exists.
  const record = await readCustomer(tenant, order.customer.id);
  // The order's treatment, fixed when it was priced: the invoice bills exactly the order's amounts.
  const treatment: TaxTreatmentDecision = { treatment: order.tax_treatment, source: 'derived', warning: order.tax_treatment_warning };
  return {
    order,
    customer: {
      ...order.customer,
      company: record?.company ?? null,
      vat_id: record?.vat_id ?? null,
      buyer_reference: buyerReference,
      billing_address: order.billing_address ?? order.shipping_address,
    },
    items: billedLines(order.items),
    shipping: shippingTaxOf(order, order.shipping),
    currency: order.currency,
    serviceDate: order.production_completed_at?.slice(0, 10) ?? null,
    treatment,
    ...vatOf(customerTaxProfile(record), record?.vat_id ?? null, treatment),
  };
}

async function draftFromItems(tenant: Tenant, input: InvoiceCreateInput, account: Seller): Promise<Draft> {
  const exemptions = input.items!.flatMap((item, index) =>
    exemptionProblems(
      { tax_category: item.tax_category ?? 'standard', tax_exemption_reason: item.tax_exemption_reason ?? null },
      `items.${index}.`,
    ),
  );
  const amounts = input.items!.map((item) => lineAmount(item.quantity, item.unit_price));
  const problems = [...exemptions, ...lineAmountProblems(amounts.map((amount) => ({ amount })))];
  if (problems.length) throw new ValidationError('The invoice is invalid', problems);
  const { customer, addresses } = await readCustomerWithAddresses(tenant, input.customer_id!, true);
  const billing = addresses.find((address) => address.id === customer.default_billing_address_id);
  const profile = customerTaxProfile(customer);
  const treatment = saleTreatment({
    sellerCountry: account.company.address.country,
    billingCountry: billing?.country ?? null,
    profile,
  });
  const items = input.items!.map((item, index) => {
    const category = item.tax_category ?? 'standard';
    const applied = lineTax(category, treatment.treatment, account.tax.rates);
    // A rate sent with the line is the shop's for this line, unless the treatment charges no VAT at all.
    const rate = item.tax_rate !== undefined && applied.category === category ? item.tax_rate : applied.rate;
    return {
      position: index + 1,
      description: item.description,
      quantity: item.quantity,
      unit_price: item.unit_price,
      tax_category: applied.category,
      tax_rate: rate,
      tax_exemption_reason: applied.category === 'exempt' ? (item.tax_exemption_reason ?? null) : null,
      amount: amounts[index]!,
      order_item_id: null,
    };
  });
  const shipping = lineTax(account.tax.shipping_tax_category, treatment.treatment, account.tax.rates);
  return {
    order: null,
    customer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      company: customer.company,
      vat_id: customer.vat_id,
      buyer_reference: input.buyer_reference ?? null,
      billing_address: billing
        ? {
            name: billing.name,
            company: billing.company,
            line1: billing.line1,
            line2: billing.line2,
            postal_code: billing.postal_code,
            city: billing.city,
            region: billing.region,
            country: billing.country,
          }
        : null,
    },
    items,
    shipping: { amount: 0, tax_category: shipping.category, tax_rate: shipping.rate },
    currency: account.currency,
    serviceDate: null,
    treatment,
    ...vatOf(profile, customer.vat_id, treatment),
  };
}

/**
 * The VAT IDs an e-invoice of these categories must carry: a reverse charge both the seller's and
 * the buyer's (EN 16931 BR-AE-02), an export the seller's (BR-G-02). A 422 before any number is
 * taken, rather than a document that cannot be rendered.
 */
function assertVatIds(draft: Draft, sellerVatId: string | null): void {
  const categories = new Set([...draft.items.map((line) => line.tax_category), draft.shipping.tax_category]);
  const problems = [
    ...((categories.has('reverse_charge') || categories.has('export')) && !sellerVatId
      ? [{ field: 'company.vat_id', message: "a reverse-charge or export invoice needs the seller's VAT ID (PUT /v1/account)" }]
      : []),
    ...(categories.has('reverse_charge') && !draft.customerVatId
      ? [{ field: 'customer.vat_id', message: "a reverse-charge invoice needs the customer's VAT ID" }]
      : []),
  ];
  if (problems.length) throw new ValidationError('The invoice cannot be issued', problems);
}

/**
 * `POST /v1/invoices`. 422 without the seller's mandatory details; 404 for an unknown order or
 * customer; 409 for an order that is pending, cancelled or already invoiced. The number, the
 * invoice, its list entries, the order's mark and `invoice.created` are one transaction.
 */
/**
 * What one invoice may take: its item and its `invoice.created` event (which keeps the invoice twice,
 * as `data` and as the JSON delivered) must stay inside DynamoDB's 400 KB. Free lines allow 200 ×
 * 500 characters, so a pathological invoice could exceed it; a real one takes a few kilobytes.
 */
export const MAX_INVOICE_BYTES = 150 * 1024;

function assertInvoiceFits(invoice: InvoiceRecord, now: Date): void {
  const problem = sizeProblem('invoice', storedInvoice.attributes(invoice, 'put'), present(invoice, now), MAX_INVOICE_BYTES);
  if (problem) throw new ValidationError('The invoice is too large', [problem]);
}

/**
 * XRechnung wants the buyer's city (BR-DE-8) and post code (BR-DE-9): an invoice whose buyer has no
 * billing address with both is refused (422), one detail per missing field, before any number is taken.
 */
function assertBuyerAddress(draft: Draft): void {
  const address = draft.customer.billing_address;
  const missing = (['city', 'postal_code'] as const).filter((name) => !address?.[name]?.trim());
  if (!missing.length) return;
  const source = draft.order
    ? `order ${draft.order.order_number} has no billing (or shipping) address with a city and postal code`
    : `customer ${draft.customer.id} has no default billing address with a city and postal code`;
  throw new ValidationError(`The buyer's address is incomplete: ${source} (XRechnung BR-DE-8, BR-DE-9)`, [
    ...missing.map((name) => ({ field: `customer.billing_address.${name}`, message: `is required for an e-invoice (${source})` })),
  ]);
}

export async function createInvoice(tenant: Tenant, input: InvoiceCreateInput, now = new Date()): Promise<Invoice> {
  const seller = await sellerOf(tenant);
  const draft =
    input.order_id !== undefined
      ? await draftFromOrder(tenant, input.order_id, input.buyer_reference ?? null)
      : await draftFromItems(tenant, input, seller);
  assertBuyerAddress(draft);
  const issuedAt = now.toISOString();
  const issueDate = today(now);
  const { company } = seller;
  assertVatIds(draft, seller.seller.vat_id);
  const totals = invoiceTotals(draft.items, draft.shipping);
  const rates = new Set([...draft.items.map((line) => line.tax_rate), ...(draft.shipping.amount > 0 ? [draft.shipping.tax_rate] : [])]);
  const base: Omit<InvoiceRecord, 'invoice_number'> = {
    id: 0,
    order_id: draft.order?.id ?? null,
    order_number: draft.order?.order_number ?? null,
    status: 'open',
    overdue: false,
    customer: draft.customer,
    seller: seller.seller,
    items: draft.items,
    subtotal: totals.subtotal,
    shipping: draft.shipping.amount,
    shipping_tax_category: draft.shipping.tax_category,
    shipping_tax_rate: draft.shipping.tax_rate,
    tax_rate: rates.size === 1 ? [...rates][0]! : null,
    tax_treatment: draft.treatment.treatment,
    tax_treatment_warning: draft.treatment.warning,
    customer_vat_id: draft.customerVatId,
    vat_validation: draft.vatValidation,
    taxes: totals.taxes,
    tax_breakdown: totals.tax_breakdown,
    tax: totals.tax,
    total: totals.total,
    amount_paid: 0,
    amount_due: totals.total,
    amount_credited: 0,
    amount_refunded: 0,
    refund_due: 0,
    credited_items: [],
    shipping_credited: 0,
    credit_notes: [],
    currency: draft.currency,
    notes: input.notes ?? null,
    issued_at: issuedAt,
    due_date: addDays(issueDate, input.due_days ?? company.payment_terms_days),
    service_date: input.service_date ?? draft.serviceDate ?? issueDate,
    sent_at: null,
    last_sent_at: null,
    paid_at: null,
    voided_at: null,
    payments: [],
    created_at: issuedAt,
    updated_at: issuedAt,
    version: 1,
  };
  const year = now.getUTCFullYear();
  // Before any id or number is taken: an invoice too large to store is a 422, and leaves no gap.
  assertInvoiceFits({ ...base, id: Number.MAX_SAFE_INTEGER, invoice_number: formatInvoiceNumber(year, 999_999_999) }, now);
  const id = await nextId(tenant, 'invoice');
  return withInvoiceNumber(
    tenant,
    year,
    (sequence) => {
      const invoice: InvoiceRecord = { ...base, id, invoice_number: formatInvoiceNumber(year, sequence) };
      const view = present(invoice, now);
      const order = draft.order;
      return {
        result: view,
        parts: [
          ...invoiceCreation(tenant, invoice),
          ...(order
            ? [
                {
                  item: orderInvoiceMarkPut(tenant, order.id, invoice),
                  onConditionFailure: () =>
                    new ConflictError(`Order ${order.order_number} already has an invoice (void it to issue another)`),
                },
                {
                  item: orderInvoiceableCheck(tenant, order.id),
                  onConditionFailure: () =>
                    new ConflictError(`Order ${order.order_number} can no longer be invoiced (cancelled meanwhile)`),
                },
              ]
            : []),
          eventPut(tenant, invoiceCreated, { invoice: view }, now).item,
        ],
      };
    },
    now,
  );
}

// ---- Read and list ----------------------------------------------------------------------------

export async function getInvoice(tenant: Tenant, id: number): Promise<Invoice> {
  return present(await repo.requireInvoice(tenant, id));
}

/** The cursor's invoice: the one `starting_after` names (422 when the tenant has none). */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<InvoiceRecord | undefined> {
  return cursorEntry(id, 'invoice', (id) => repo.readInvoice(tenant, id));
}

export interface InvoicePage {
  items: Invoice[];
  total: number;
  capped: boolean;
  hasMore: boolean;
}

/**
 * `GET /v1/invoices`. The due-date filters (`due_before`, `overdue`) combine with each other only;
 * `status` combines with `customer_id` or `order_id` (docs/invoices.md): each combination is one
 * index partition, so a page never reads more than it shows.
 */
export async function listInvoices(tenant: Tenant, query: InvoiceListQuery, now = new Date()): Promise<InvoicePage> {
  const byDue = query.due_before !== undefined || query.overdue !== undefined;
  const others = (['status', 'customer_id', 'order_id'] as const).filter((name) => query[name] !== undefined);
  if (byDue && others.length > 0) {
    throw new ValidationError('due_before and overdue list by due date and combine only with each other', [
      { field: others[0]!, message: 'cannot be combined with due_before or overdue' },
    ]);
  }
  if (query.customer_id !== undefined && query.order_id !== undefined) {
    throw new ValidationError('Filter by customer or by order, not both', [
      { field: 'order_id', message: "cannot be combined with customer_id (an order's invoices are its customer's)" },
    ]);
  }
  const after = await cursorOf(tenant, query.starting_after);
  const result = await repo.listInvoices(
    tenant,
    {
      status: query.status,
      customerId: query.customer_id,
      orderId: query.order_id,
      dueBefore: query.due_before,
      unpaidDueBefore: query.overdue ? today(now) : undefined,
    },
    { page: query.page, perPage: query.per_page, after },
  );
  return { ...result, items: result.items.map((invoice) => present(invoice, now)) };
}

/** `GET /v1/customers/{id}/invoices` (404 for an unknown customer; a deleted customer's invoices remain under /v1/invoices). */
export async function listCustomerInvoices(tenant: Tenant, customerId: number, query: CustomerInvoicesQuery): Promise<InvoicePage> {
  const after = await repo.requireCustomerAndCursorInvoice(tenant, customerId, query.starting_after);
  const page = { page: query.page, perPage: query.per_page, after };
  const result = await repo.listInvoices(tenant, { status: query.status, customerId }, page);
  const now = new Date();
  return { ...result, items: result.items.map((invoice) => present(invoice, now)) };
}

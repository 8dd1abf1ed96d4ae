/**
 * Sample resources for test deliveries (`POST /v1/webhooks/{id}/test`): realistic enough for a
 * receiver to exercise its parsing, obviously fake (id 0, example.com), and never real data.
 */
import { storedCustomer } from '#shared/customers/stored';
import { resourceTypeOf, type EventKind } from '#shared/events/catalogue';
import { storedCreditNote } from '#shared/credit-notes/stored';
import { storedInvoice } from '#shared/invoices/stored';
import { storedOrder } from '#shared/orders/stored';
import { storedQuote } from '#shared/quotes/stored';
import { storedJob } from '#shared/production/stored';
import { storedDecision, storedProof } from '#shared/proofs/stored';
import { storedShipment } from '#shared/shipments/stored';
import { stockLowProduct } from '#shared/products/events';

const customer = { id: 0, name: 'Test Customer', email: 'test.customer@example.com' };

const address = {
  name: 'Test Customer',
  company: 'Example Print GmbH',
  line1: 'Musterstraße 1',
  line2: null,
  postal_code: '10115',
  city: 'Berlin',
  region: null,
  country: 'DE',
};

/** The buyer and seller copies an invoice and its credit notes carry. */
const invoiceParties = {
  customer: { ...customer, company: 'Example Print GmbH', vat_id: null, buyer_reference: null, billing_address: address },
  seller: {
    legal_name: 'Example Print Shop GmbH',
    address: { ...address, name: 'Example Print Shop GmbH', company: null },
    vat_id: 'DE000000000',
    tax_number: null,
    iban: 'DE89370400440532013000',
    bic: null,
    email: 'billing@example.com',
    phone: null,
    payment_terms_days: 14,
    footer: null,
  },
};

/** The lines, totals and addresses of the sample order and quote (an accepted quote's become its order's). */
const pricedSample = {
  items: [
    {
      id: 1,
      product_id: 0,
      legacy: null,
      description: 'Test Flyer A5',
      quantity: 1000,
      unit_price: 10,
      setup_fee: 0,
      price_source: 'product' as const,
      options: {},
      file_ids: [],
      files: [],
      total: 10000,
      tax_category: 'standard' as const,
      tax_rate: 19,
      tax_exemption_reason: null,
      hs_code: null,
      origin_country: null,
      customs_description: null,
    },
  ],
  subtotal: 10000,
  tax_rate: 19,
  tax_rates: { standard: 19, reduced: 7, zero: 0, exempt: 0 } as const,
  tax_treatment: 'domestic' as const,
  tax_treatment_warning: null,
  shipping_tax_category: 'standard' as const,
  shipping_tax_rate: 19,
  taxes: [{ category: 'standard' as const, rate: 19, taxable_amount: 10000, tax_amount: 1900 }],
  tax: 1900,
  shipping: 0,
  total: 11900,
  currency: 'EUR',
  shipping_address: address,
  billing_address: address,
  notes: null,
};

/**
 * Samples of the resources that events carry today are built from stored records through the
 * resources' own views, so a sample has exactly the shape of a real payload (a unit test checks
 * every declared kind). Kinds of resources not built yet get a plausible shape until then.
 */
const samples: Record<string, (now: string) => Record<string, unknown>> = {
  customer: (now) =>
    storedCustomer.view({
      ...customer,
      phone: null,
      company: 'Example Print GmbH',
      vat_id: null,
      vat_validation: null,
      tax_treatment_override: null,
      tax_treatment: 'domestic',
      tax_treatment_warning: null,
      notes: null,
      guest: false,
      created_at: now,
      updated_at: now,
      version: 1,
      default_billing_address_id: null,
      default_shipping_address_id: null,
      address_count: 0,
      open_orders: 0,
    }),
  order: (now) =>
    storedOrder.view({
      id: 0,
      order_number: 'ORD-TEST-000000',
      status: 'pending',
      customer,
      ...pricedSample,
      due_date: null,
      created_at: now,
      updated_at: now,
      version: 1,
      quote_id: null,
      reserved: [],
      job_ids: [],
      open_jobs: 0,
      completed_jobs: 0,
      production_started_at: null,
      production_completed_at: null,
    }),
  // stock.low carries a slim product (shared/products/events.ts).
  product: () => stockLowProduct({ id: 0, name: 'Test Flyer A5', stock: { tracked: true, quantity: 3, low_threshold: 10 } }, 3),
  invoice: (now) =>
    storedInvoice.view({
      id: 0,
      invoice_number: 'INV-TEST-000000',
      order_id: 0,
      order_number: 'ORD-TEST-000000',
      status: 'sent',
      overdue: false,
      ...invoiceParties,
      items: [
        {
          position: 1,
          description: 'Test Flyer A5',
          quantity: 1000,
          unit_price: 10,
          tax_category: 'standard',
          tax_rate: 19,
          tax_exemption_reason: null,
          amount: 10000,
          order_item_id: 1,
        },
      ],
      subtotal: 10000,
      shipping: 0,
      shipping_tax_category: 'standard',
      shipping_tax_rate: 19,
      tax_rate: 19,
      tax_treatment: 'domestic',
      tax_treatment_warning: null,
      customer_vat_id: null,
      vat_validation: null,
      taxes: [{ category: 'standard', rate: 19, taxable_amount: 10000, tax_amount: 1900 }],
      tax_breakdown: [{ tax_rate: 19, taxable_amount: 10000, tax: 1900 }],
      tax: 1900,
      total: 11900,
      amount_paid: 0,
      amount_due: 11900,
      amount_credited: 0,
      amount_refunded: 0,
      refund_due: 0,
      credited_items: [],
      shipping_credited: 0,
      credit_notes: [],
      currency: 'EUR',
      notes: null,
      issued_at: now,
      due_date: now.slice(0, 10),
      service_date: now.slice(0, 10),
      sent_at: now,
      last_sent_at: now,
      paid_at: null,
      voided_at: null,
      payments: [],
      created_at: now,
      updated_at: now,
      version: 2,
    }),
  credit_note: (now) =>
    storedCreditNote.view({
      id: 0,
      credit_note_number: 'CN-TEST-000000',
      invoice_id: 0,
      invoice_number: 'INV-TEST-000000',
      invoice_issue_date: now.slice(0, 10),
      order_id: 0,
      order_number: 'ORD-TEST-000000',
      reason: 'Test credit: goods returned',
      ...invoiceParties,
      items: [
        {
          position: 1,
          invoice_position: 1,
          description: 'Test Flyer A5',
          quantity: 100,
          unit_price: 10,
          tax_category: 'standard',
          tax_rate: 19,
          tax_exemption_reason: null,
          amount: 1000,
          quantity_credited: 100,
        },
      ],
      subtotal: 1000,
      shipping: 0,
      shipping_tax_category: 'standard',
      shipping_tax_rate: 19,
      taxes: [{ category: 'standard', rate: 19, taxable_amount: 1000, tax_amount: 190 }],
      tax: 190,
      total: 1190,
      currency: 'EUR',
      service_date: now.slice(0, 10),
      amount_refunded: 0,
      refunds: [],
      issued_at: now,
      created_at: now,
      updated_at: now,
      version: 1,
    }),
  quote: (now) =>
    storedQuote.view({
      id: 0,
      quote_number: 'QUO-TEST-000000',
      status: 'accepted',
      customer,
      ...pricedSample,
      valid_until: now.slice(0, 10),
      order_id: 0,
      rejection_reason: null,
      accepted_at: now,
      rejected_at: null,
      created_at: now,
      updated_at: now,
      version: 2,
    }),
  production_job: (now) =>
    storedJob.view({
      id: 0,
      order_id: 0,
      order_item_id: 1,
      order_number: 'ORD-TEST-000000',
      product_id: 0,
      description: 'Test Flyer A5',
      quantity: 1000,
      file_ids: [],
      status: 'printing',
      held_from: null,
      machine_id: 0,
      priority: 'normal',
      due_date: null,
      estimated_minutes: 35,
      started_at: now,
      completed_at: null,
      reprints: 0,
      notes: null,
      awaiting_approval: false,
      history: [
        { status: 'queued', at: now, note: 'Order ORD-TEST-000000 confirmed', by: 'sk_test_0000' },
        { status: 'scheduled', at: now, note: null, by: 'sk_test_0000' },
        { status: 'printing', at: now, note: null, by: 'sk_test_0000' },
      ],
      created_at: now,
      updated_at: now,
      version: 3,
    }),
  shipment: (now) =>
    storedShipment.view({
      id: 0,
      order_id: 0,
      order_number: 'ORD-TEST-000000',
      carrier: 'sandbox',
      service: 'sandbox:standard',
      status: 'delivered',
      partial: false,
      tracking_number: 'SBX000000000000',
      tracking_url: 'https://sandbox.print-shop.example/track/SBX000000000000',
      carrier_shipment_id: 'sbx_test',
      carrier_parcel_ids: ['sbx_test_1'],
      parcel_tracking: [{ parcel_id: 'sbx_test_1', tracking_number: 'SBX000000000000', status: 'delivered', status_at: now }],
      parcels: [{ weight_g: 1320, length_mm: 300, width_mm: 210, height_mm: 50 }],
      items: [{ line_id: 1, quantity: 1000 }],
      address,
      label: { content_type: 'application/pdf', parcels: 1, url: '/v1/shipments/0/label' },
      events: [
        { status: 'label_created', description: 'Label created', location: null, occurred_at: now, carrier_status: null },
        { status: 'in_transit', description: 'Parcel in transit', location: 'Hamburg', occurred_at: now, carrier_status: 'in_transit' },
        { status: 'delivered', description: 'Delivered', location: 'Berlin', occurred_at: now, carrier_status: 'delivered' },
      ],
      external_reference: 'acct_test:test:shipment:0',
      cancel_requested_at: null,
      return_shipment: null,
      delivered_at: now,
      created_at: now,
      updated_at: now,
      version: 3,
      phase: 'recorded',
      status_at: now,
      seen: [],
      tracking_refreshed_at: null,
      request_hash: '',
      unsettled_at: null,
    }),
  proof: (now) => ({
    ...storedProof.view({
      id: 0,
      order_id: 0,
      order_number: 'ORD-TEST-000000',
      customer_id: 0,
      line_ids: [1],
      file_id: 0,
      artwork: [{ line_id: 1, file_id: 0, filename: 'test-flyer.pdf', sha256: '0'.repeat(64) }],
      message: 'Please check the bleed.',
      requires_approval: true,
      state: 'pending',
      expires_at: now,
      superseded_by: null,
      decided_at: null,
      link_expires_at: now,
      link_revoked_at: null,
      link_hash: null,
      created_at: now,
      updated_at: now,
      version: 1,
    }),
    decisions: [],
  }),
};

/** A decision record of the sample proof (proof.approved and proof.changes_requested carry one beside the proof). */
const sampleDecision = (decision: 'approved' | 'changes_requested') =>
  storedDecision.view({
    proof_id: 0,
    decision,
    decided_by: { kind: 'customer', customer_id: 0, via: 'customer_token', key_prefix: null, name: 'Test Customer' },
    decided_at: '2026-01-01T00:00:00.000Z',
    ip_address: '192.0.2.1',
    user_agent: 'Example/1.0',
    comment: decision === 'approved' ? null : 'The logo should be larger.',
    artwork: [{ line_id: 1, file_id: 0, filename: 'test-flyer.pdf', sha256: '0'.repeat(64) }],
  });

/** What some kinds carry beside their resource (production.started and .completed: the order; a proof's decision: its record). */
const siblings: Partial<Record<EventKind, Record<string, unknown>>> = {
  'production.started': { order: { id: 0, order_number: 'ORD-TEST-000000', status: 'in_production' } },
  'production.completed': { order: { id: 0, order_number: 'ORD-TEST-000000', status: 'ready' } },
  'proof.approved': { decision: sampleDecision('approved') },
  'proof.changes_requested': { decision: sampleDecision('changes_requested') },
};

/** `data` of a sample event of `kind`: the sample resource under its type name (and its siblings, if any). */
export function sampleData(kind: EventKind, now = new Date().toISOString()): Record<string, unknown> {
  const type = resourceTypeOf[kind];
  return { [type]: (samples[type] ?? ((at: string) => ({ id: 0, created_at: at })))(now), ...siblings[kind] };
}

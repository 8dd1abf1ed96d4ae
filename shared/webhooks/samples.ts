/**
 * Sample resources for test deliveries (`POST /v1/webhooks/{id}/test`): realistic enough for a
 * receiver to exercise its parsing, obviously fake (id 0, example.com), and never real data.
 */
import { resourceTypeOf, type EventKind } from '#shared/events/catalogue';

const customer = { id: 0, name: 'Test Customer', email: 'test.customer@example.com' };

const samples: Record<string, (now: string) => Record<string, unknown>> = {
  customer: (now) => ({
    ...customer,
    phone: null,
    company: 'Example Print GmbH',
    vat_id: null,
    notes: null,
    created_at: now,
    updated_at: now,
  }),
  order: (now) => ({
    id: 0,
    order_number: 'ORD-TEST-000000',
    status: 'pending',
    total: 119.0,
    currency: 'EUR',
    customer,
    created_at: now,
    updated_at: now,
  }),
  invoice: (now) => ({
    id: 0,
    invoice_number: 'INV-TEST-000000',
    status: 'sent',
    total: 119.0,
    currency: 'EUR',
    customer,
    created_at: now,
    updated_at: now,
  }),
  quote: (now) => ({
    id: 0,
    quote_number: 'QUO-TEST-000000',
    status: 'sent',
    total: 119.0,
    currency: 'EUR',
    customer,
    created_at: now,
    updated_at: now,
  }),
  production_job: (now) => ({ id: 0, order_id: 0, status: 'in_progress', machine: 'Test Press', created_at: now, updated_at: now }),
  shipment: (now) => ({
    id: 0,
    order_id: 0,
    carrier: 'sandbox',
    tracking_number: 'TEST000000',
    status: 'delivered',
    created_at: now,
    updated_at: now,
  }),
  product: (now) => ({
    id: 0,
    name: 'Test Flyer A5',
    category: 'flyers',
    is_active: true,
    stock: 3,
    low_threshold: 10,
    created_at: now,
    updated_at: now,
  }),
};

/** `data` of a sample event of `kind`: the sample resource under its type name. */
export function sampleData(kind: EventKind, now = new Date().toISOString()): Record<string, unknown> {
  const type = resourceTypeOf[kind];
  return { [type]: (samples[type] ?? ((at: string) => ({ id: 0, created_at: at })))(now) };
}

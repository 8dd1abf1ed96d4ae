/** Stored records for unit tests of pure rules: complete, with defaults a test overrides. */
import type { OrderRecord } from '#shared/orders/stored';
import type { ProductRecord } from '#shared/products/stored';

/** A plain active product (1.00 a piece in minor units, no tiers, options or setup fee, stock not tracked). */
export const productRecord = (overrides: Partial<ProductRecord> = {}): ProductRecord => ({
  id: 1,
  name: 'Product',
  description: null,
  category: 'flyers',
  is_active: true,
  unit: 'piece',
  min_qty: 1,
  max_qty: null,
  base_price: 100,
  price_tiers: [],
  options: [],
  setup_fee: 0,
  production_days: 1,
  stock: { tracked: false, quantity: 0, low_threshold: 0 },
  images: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  version: 1,
  order_refs: 0,
  ...overrides,
});

/** A pending order of one customer with no lines, amounts or production (a test overrides what it needs). */
export const orderRecord = (overrides: Partial<OrderRecord> = {}): OrderRecord => ({
  id: 42,
  order_number: 'ORD-2026-000042',
  status: 'pending',
  customer: { id: 7, name: 'Anna', email: 'anna@example.com' },
  items: [],
  subtotal: 0,
  tax_rate: 19,
  tax: 0,
  shipping: 0,
  total: 0,
  currency: 'EUR',
  shipping_address: null,
  billing_address: null,
  notes: null,
  due_date: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  version: 1,
  quote_id: null,
  reserved: [],
  job_ids: [],
  open_jobs: 0,
  completed_jobs: 0,
  production_started_at: null,
  production_completed_at: null,
  ...overrides,
});

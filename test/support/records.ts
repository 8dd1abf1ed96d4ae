/** Stored records for unit tests of pure rules: complete, with defaults a test overrides. */
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

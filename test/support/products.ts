/**
 * The product fixtures — every product and legacy-product create body the tests send lives here —
 * and checks shared by the product integration tests.
 */
import { expect } from 'vitest';
import { call } from './http';

export const REMOVED = ['sku', 'status', 'category_id', 'min_quantity'];

/** Every key of every object in a JSON value (to prove the removed names never appear). */
export function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => keysOf(item, into));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      into.add(key);
      keysOf(inner, into);
    }
  }
  return into;
}
export const expectNoRemovedNames = (body: unknown) => {
  const keys = keysOf(body);
  for (const name of REMOVED) expect(keys.has(name), name).toBe(false);
};

/** Business cards: 0.12 below 250, 0.09 from 250, 0.06 from 1000; linen +0.03; soft-touch +0.01 then ×1.25; setup 9.90. */
export const businessCards = (category = 'cards') => ({
  name: 'Business cards',
  description: '85 × 55 mm',
  category,
  min_qty: 100,
  max_qty: 5000,
  unit: 'piece',
  base_price: 0.12,
  price_tiers: [
    { min_qty: 250, unit_price: 0.09 },
    { min_qty: 1000, unit_price: 0.06 },
  ],
  options: [
    {
      code: 'paper',
      name: 'Paper',
      values: [
        { code: 'matt300', name: 'Matt 300 g', price_delta: 0 },
        { code: 'linen', name: 'Linen 350 g', price_delta: 0.03 },
      ],
    },
    {
      code: 'finish',
      name: 'Finish',
      default: 'none',
      values: [
        { code: 'none', name: 'None' },
        { code: 'softtouch', name: 'Soft-touch', price_delta: 0.01, price_factor: 1.25 },
      ],
    },
  ],
  setup_fee: 9.9,
  production_days: 4,
  images: ['https://cdn.example.com/cards.jpg'],
});

/** The simplest product: 1.00 per piece, no tiers, options or setup fee (or what `overrides` says). */
export const posterA2 = (overrides: Record<string, unknown> = {}) => ({
  name: 'Poster A2',
  category: 'posters',
  base_price: 1,
  ...overrides,
});

/** A legacy price table: five cells of format × color × quantity × pages. */
export const smallTable = [
  { format: 'A5', color: '4/4', quantity: 100, pages: 8, price: 49.9 },
  { format: 'A5', color: '4/4', quantity: 250, pages: 8, price: 89 },
  { format: 'A4', color: '4/4', quantity: 100, pages: 8, price: 69.9 },
  { format: 'A4', color: '4/0', quantity: 100, pages: 12, price: 79.5 },
  { format: 'A4', color: '4/4', quantity: 500, pages: 12, price: 210.25 },
];

/** A legacy product priced by lookup in `prices` (default: the small table). */
export const brochure = (prices: unknown[] = smallTable) => ({
  name: 'Brochure',
  description: 'Saddle-stitched',
  image: 'https://cdn.example.com/brochure.jpg',
  gallery_images: ['https://cdn.example.com/b1.jpg', 'https://cdn.example.com/b2.jpg'],
  brands: ['PrintPro', 'EcoPrint'],
  prices,
});

export async function createProduct(body: Record<string, unknown> = businessCards(), key?: string) {
  const response = await call('POST', '/v1/products', { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

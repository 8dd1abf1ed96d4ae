import { describe, expect, it } from 'vitest';
import { issuesToDetails } from '#shared/http/validation';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { productProblems } from '#shared/products/rules';
import { ProductCreateSchema, ProductListQuerySchema, ProductUpdateSchema } from '#shared/products/schema';

const REMOVED = ['sku', 'status', 'category_id', 'min_quantity'];

const details = (schema: typeof ProductCreateSchema | typeof ProductUpdateSchema | typeof ProductListQuerySchema, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : issuesToDetails(result.error.issues);
};

describe('product schema v1.1', () => {
  it('names each removed field and its replacement, alongside the other problems', () => {
    expect(
      details(ProductCreateSchema, { name: 'Flyer', sku: 'FLY-1', min_quantity: 5, status: 'active', category_id: 3, colour: 'red' }),
    ).toEqual([
      { field: 'category', message: 'Required' },
      { field: 'base_price', message: 'Required' },
      { field: 'sku', message: 'sku was removed in v1.1; identify products by id' },
      { field: 'min_quantity', message: 'min_quantity was renamed to min_qty in v1.1' },
      { field: 'status', message: 'status was replaced by is_active (boolean) in v1.1' },
      { field: 'category_id', message: 'category_id was replaced by category (string) in v1.1' },
      { field: 'colour', message: 'Unknown field' },
    ]);
    expect(details(ProductUpdateSchema, { min_quantity: 5 })).toEqual([
      { field: 'min_quantity', message: 'min_quantity was renamed to min_qty in v1.1' },
    ]);
    expect(details(ProductListQuerySchema, { status: 'active' })).toEqual([
      { field: 'status', message: 'status was replaced by is_active (boolean) in v1.1' },
    ]);
    expect(details(ProductCreateSchema, { name: 'x', category: 'c', base_price: 1, constructor: 1 })).toEqual([
      { field: 'constructor', message: 'Unknown field' },
    ]);
    expect(details(ProductCreateSchema, [1, 2]).map((detail) => detail.field)).toEqual(['(body)']); // no per-index "unknown fields"
  });

  it('applies defaults and turns money into minor units', () => {
    const parsed = ProductCreateSchema.parse({
      name: ' Flyer ',
      category: 'flyers',
      base_price: 0.35,
      price_tiers: [{ min_qty: 100, unit_price: 0.3 }],
    });
    expect(parsed).toMatchObject({
      name: 'Flyer',
      is_active: true,
      min_qty: 1,
      unit: 'piece',
      base_price: 35,
      price_tiers: [{ min_qty: 100, unit_price: 30 }],
      options: [],
      setup_fee: 0,
      production_days: 1,
      images: [],
    });
    expect(details(ProductCreateSchema, { name: 'x', category: 'c', base_price: 0.355 })).toEqual([
      { field: 'base_price', message: 'must have at most 2 decimals' },
    ]);
  });

  it('never documents the removed names in the product schemas or anywhere in the OpenAPI document', () => {
    const document = buildOpenApiDocument();
    const schemas = document.components?.schemas ?? {};
    for (const id of [
      'Product',
      'ProductCreate',
      'ProductUpdate',
      'ProductDeleted',
      'PriceQuote',
      'ProductCalculate',
      'LegacyProduct',
      'LegacyProductCreate',
    ]) {
      expect(schemas[id], id).toBeDefined();
      const text = JSON.stringify(schemas[id]);
      for (const name of REMOVED) expect(text, `${id} mentions ${name}`).not.toContain(`"${name}"`);
    }
    const productPaths = Object.entries(document.paths ?? {}).filter(([path]) => path.includes('products'));
    expect(productPaths.length).toBeGreaterThanOrEqual(8);
    for (const [path, item] of productPaths) for (const name of REMOVED) expect(JSON.stringify(item), path).not.toContain(`"${name}"`);
    expect(JSON.stringify(schemas.ProductCreate)).toContain('"additionalProperties":false');
  });

  it('documents the CSV import as a text/csv request body', () => {
    const put = buildOpenApiDocument().paths?.['/legacy-products/{id}/prices']?.put;
    expect(Object.keys((put?.requestBody as { content: object }).content)).toEqual(['text/csv']);
    expect(Object.keys(put?.responses ?? {})).toEqual(expect.arrayContaining(['200', '404', '413', '415', '422']));
  });
});

describe('product rules', () => {
  const base = { min_qty: 1, max_qty: null, base_price: 100, price_tiers: [], options: [] };

  it('accepts a consistent product', () => {
    expect(productProblems(base)).toEqual([]);
  });

  it('refuses max below min, unordered tiers, duplicate codes and unknown defaults', () => {
    const problems = productProblems({
      ...base,
      min_qty: 10,
      max_qty: 5,
      price_tiers: [
        { min_qty: 100, unit_price: 50 },
        { min_qty: 100, unit_price: 40 },
      ],
      options: [
        {
          code: 'paper',
          name: 'P',
          required: true,
          default: 'x',
          values: [
            { code: 'a', name: 'A', price_delta: 0, price_factor: null },
            { code: 'a', name: 'A2', price_delta: 0, price_factor: null },
          ],
        },
        {
          code: 'paper',
          name: 'P2',
          required: true,
          default: null,
          values: [{ code: 'b', name: 'B', price_delta: 0, price_factor: null }],
        },
      ],
    });
    expect(problems.map((p) => p.field)).toEqual(['max_qty', 'price_tiers.1.min_qty', 'options', 'options.0.values', 'options.0.default']);
  });

  it('refuses option deltas that can make a unit price negative', () => {
    const problems = productProblems({
      ...base,
      price_tiers: [{ min_qty: 10, unit_price: 20 }],
      options: [
        {
          code: 'paper',
          name: 'P',
          required: true,
          default: null,
          values: [{ code: 'thin', name: 'Thin', price_delta: -30, price_factor: null }],
        },
      ],
    });
    expect(problems).toEqual([{ field: 'options', message: expect.stringContaining('unit price of -0.10') }]);
  });
});

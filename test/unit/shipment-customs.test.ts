/**
 * Customs of a shipment leaving the EU customs area (shared/shipments/customs.ts): the declaration
 * from the order's lines (invoice number, export reason and type, one item per line shipped), a 422
 * naming each line without an HS code or origin; the pieces split over the parcels with their
 * weights; the same rules for a product's and an order line's customs fields; and the announce
 * body Sendcloud receives, held to the v3 contract.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#shared/errors';
import { OrderCreateSchema } from '#shared/orders/schema';
import { ProductCreateSchema } from '#shared/products/schema';
import type { LabelRequest } from '#shared/shipments/carriers/carrier';
import { needsCustoms } from '#shared/shipments/carriers/customs-area';
import { announceBody } from '#shared/shipments/carriers/sendcloud';
import { customsDeclarationOf, parcelContents, unitValueOf } from '#shared/shipments/customs';
import { contractErrors } from '#test/support/sendcloud-contract';
import { orderRecord } from '#test/support/records';

const line = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  product_id: id,
  legacy: null,
  description: `Line ${id}`,
  quantity: 500,
  unit_price: 16,
  setup_fee: 990,
  price_source: 'product' as const,
  options: {},
  file_ids: [],
  files: [],
  total: 500 * 16 + 990,
  tax_category: 'standard' as const,
  tax_rate: 19,
  tax_exemption_reason: null,
  hs_code: '491199',
  origin_country: 'DE',
  customs_description: null,
  ...overrides,
});

const zurich = {
  name: 'Anna Meier',
  company: null,
  line1: 'Bahnhofstrasse 1',
  line2: null,
  postal_code: '8001',
  city: 'Zürich',
  region: null,
  country: 'CH',
};
const order = orderRecord({ currency: 'EUR', items: [line(1), line(2, { quantity: 1, unit_price: 2000, setup_fee: 0, total: 2000 })] });
const shipped = [
  { line_id: 1, quantity: 500 },
  { line_id: 2, quantity: 1 },
];

describe('the customs declaration', () => {
  it('is null inside the EU customs area (Monaco included) and needed outside it', () => {
    expect(customsDeclarationOf(order, { items: shipped, address: { ...zurich, country: 'DE' } }, null)).toBeNull();
    expect(needsCustoms('MC')).toBe(false);
    expect(needsCustoms('ch')).toBe(true);
  });

  it("declares each line shipped with its value per piece, HS code and origin; the invoice's number, else the order's", () => {
    const declaration = customsDeclarationOf(order, { items: [{ line_id: 1, quantity: 200 }], address: zurich }, null)!;
    expect(declaration).toEqual({
      invoice_number: order.order_number,
      export_reason: 'commercial_goods',
      export_type: 'commercial_b2c',
      currency: 'EUR',
      // 89.90 over 500 pieces: 0.1798 → 0.18 (the setup fee is part of the value)
      items: [{ line_id: 1, description: 'Line 1', quantity: 200, unit_value: 18, hs_code: '491199', origin_country: 'DE' }],
    });
    const business = customsDeclarationOf(order, { items: shipped, address: { ...zurich, company: 'Meier AG' } }, 'INV-2026-000007')!;
    expect(business).toMatchObject({ invoice_number: 'INV-2026-000007', export_type: 'commercial_b2b' });
    expect(business.items.map((item) => item.unit_value)).toEqual([18, 2000]);
  });

  it("prefers the line's customs description, cut to 255 characters", () => {
    const described = orderRecord({ items: [line(1, { customs_description: 'Printed flyers, paper', description: 'Flyer A5' })] });
    expect(customsDeclarationOf(described, { items: [{ line_id: 1, quantity: 1 }], address: zurich }, null)!.items[0]!.description).toBe(
      'Printed flyers, paper',
    );
    const long = orderRecord({ items: [line(1, { description: 'x'.repeat(400) })] });
    expect(customsDeclarationOf(long, { items: [{ line_id: 1, quantity: 1 }], address: zurich }, null)!.items[0]!.description).toHaveLength(
      255,
    );
  });

  it('refuses (422) naming every line shipped without an HS code or an origin country', () => {
    const missing = orderRecord({ items: [line(1, { hs_code: null }), line(2, { origin_country: null }), line(3, { hs_code: null })] });
    let error: unknown;
    try {
      customsDeclarationOf(
        missing,
        {
          items: [
            { line_id: 1, quantity: 1 },
            { line_id: 2, quantity: 1 },
          ],
          address: zurich,
        },
        null,
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details!.map((detail) => detail.field)).toEqual(['items.1.hs_code', 'items.2.origin_country']);
    expect((error as ValidationError).details![0]!.message).toContain('line 1 (Line 1) has no hs_code');
  });

  it('values a piece at its line total over its quantity, rounded half-up', () => {
    expect(unitValueOf({ total: 8990, quantity: 500 })).toBe(18);
    expect(unitValueOf({ total: 5, quantity: 2 })).toBe(3);
    expect(unitValueOf({ total: 0, quantity: 7 })).toBe(0);
  });
});

describe('the pieces over the parcels', () => {
  const items = customsDeclarationOf(order, { items: shipped, address: zurich }, null)!.items;
  const parcel = (weight_g: number) => ({ weight_g, length_mm: 300, width_mm: 210, height_mm: 50 });

  it('puts everything in one parcel, each piece weighing the parcel over the pieces', () => {
    const [only] = parcelContents(items, [parcel(1002)]);
    expect(only!.map((entry) => [entry.item.line_id, entry.quantity, entry.piece_weight_g])).toEqual([
      [1, 500, 2],
      [2, 1, 2],
    ]);
  });

  it('splits the pieces as evenly as the parcels allow, in line order, each parcel with its own weights', () => {
    const contents = parcelContents(items, [parcel(1000), parcel(1000), parcel(600)]);
    expect(contents.map((content) => content.map((entry) => [entry.item.line_id, entry.quantity]))).toEqual([
      [[1, 167]],
      [[1, 167]],
      [
        [1, 166],
        [2, 1],
      ],
    ]);
    expect(contents[2]![0]!.piece_weight_g).toBe(600 / 167);
  });

  it('refuses (422) more parcels than pieces: every parcel declares its contents', () => {
    const single = customsDeclarationOf(order, { items: [{ line_id: 2, quantity: 1 }], address: zurich }, null)!.items;
    expect(() => parcelContents(single, [parcel(100), parcel(100)])).toThrow(ValidationError);
  });
});

describe("a product's and an order line's customs fields", () => {
  const product = { name: 'Flyer', category: 'flyers', base_price: 1 };
  const orderLine = (fields: Record<string, unknown>) => ({ customer_id: 1, items: [{ product_id: 1, quantity: 1, ...fields }] });

  it('take the same values: 6–10 digits, an ISO alpha-2 country, a description of at most 255 characters', () => {
    const cases: [Record<string, unknown>, boolean][] = [
      [{ hs_code: '491199', origin_country: 'DE', customs_description: 'Printed matter' }, true],
      [{ hs_code: '4911990000' }, true],
      [{ hs_code: null, origin_country: null, customs_description: null }, true],
      [{ hs_code: '49119' }, false],
      [{ hs_code: '49119900001' }, false],
      [{ hs_code: '4911.99' }, false],
      [{ origin_country: 'de' }, false],
      [{ origin_country: 'DEU' }, false],
      [{ customs_description: 'x'.repeat(256) }, false],
    ];
    for (const [fields, valid] of cases) {
      expect(ProductCreateSchema.safeParse({ ...product, ...fields }).success, JSON.stringify(fields)).toBe(valid);
      expect(OrderCreateSchema.safeParse(orderLine(fields)).success, JSON.stringify(fields)).toBe(valid);
    }
  });
});

describe('the announce of a shipment leaving the EU customs area', () => {
  const request = (overrides: Partial<LabelRequest> = {}): LabelRequest => ({
    reference: 'acct_test:live:shipment:1',
    service: 'dhl_express:worldwide',
    order_number: order.order_number,
    parcels: [{ weight_g: 1002, length_mm: 300, width_mm: 210, height_mm: 50 }],
    to: { ...zurich, email: 'anna@example.com' },
    from: {
      name: 'Druckerei',
      company: null,
      line1: 'Druckweg 2',
      line2: null,
      postal_code: '20457',
      city: 'Hamburg',
      region: null,
      country: 'DE',
    },
    customs: customsDeclarationOf(order, { items: shipped, address: zurich }, 'INV-2026-000007'),
    ...overrides,
  });

  it('carries customs_information and one parcel item per line, in the documented units, and passes the v3 contract', () => {
    const body = announceBody(request());
    expect(body.customs_information).toEqual({
      invoice_number: 'INV-2026-000007',
      export_reason: 'commercial_goods',
      export_type: 'commercial_b2c',
    });
    expect(body.parcels[0].parcel_items).toEqual([
      {
        item_id: '1',
        description: 'Line 1',
        quantity: 500,
        weight: { value: 2, unit: 'g' },
        price: { value: '0.18', currency: 'EUR' },
        hs_code: '491199',
        origin_country: 'DE',
      },
      {
        item_id: '2',
        description: 'Line 2',
        quantity: 1,
        weight: { value: 2, unit: 'g' },
        price: { value: '20.00', currency: 'EUR' },
        hs_code: '491199',
        origin_country: 'DE',
      },
    ]);
    expect(contractErrors('announce', body)).toEqual([]);
  });

  it('sends neither inside the EU customs area', () => {
    const body = announceBody(request({ to: { ...request().to, country: 'AT', postal_code: '1010' }, customs: null }));
    expect(body).not.toHaveProperty('customs_information');
    expect(body.parcels[0]).not.toHaveProperty('parcel_items');
    expect(contractErrors('announce', body)).toEqual([]);
  });

  it('is refused by the contract without customs, with mixed currencies, or with a malformed state code', () => {
    const body = announceBody(request());
    const { customs_information: _dropped, ...bare } = body;
    expect(contractErrors('announce', bare).map((error) => error.source?.pointer)).toEqual(['/customs_information']);
    const mixed = structuredClone(body);
    mixed.parcels[0].parcel_items[1].price.currency = 'CHF';
    expect(contractErrors('announce', mixed)).toEqual([
      expect.objectContaining({
        detail: 'Mixed currencies are not accepted.',
        source: { pointer: '/parcels/0/parcel_items/1/price/currency' },
      }),
    ]);
    const state = { ...body, to_address: { ...body.to_address, state_province_code: 'Zurich' } };
    expect(contractErrors('announce', state).map((error) => error.source?.pointer)).toEqual(['/to_address/state_province_code']);
  });
});

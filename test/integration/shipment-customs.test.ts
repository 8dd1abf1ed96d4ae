/**
 * Shipments leaving the EU customs area, over HTTP: products carry customs fields that order lines
 * copy (a manual line sends its own); a live Sendcloud shipment to Switzerland announces
 * `customs_information` and one parcel item per line, held to the v3 contract by the fake; a line
 * without an HS code is a 422 naming it before anything is reserved or sent — in test mode too.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call } from '#test/support/http';
import { enableInvoicing, invoiceOrder } from '#test/support/invoices';
import { newCustomer, newProduct } from '#test/support/orders';
import { expectNoContractViolations, startFakeSendcloud, type FakeSendcloud } from '#test/support/sendcloud-fake';
import { freshShop, readyOrder, type Shop } from '#test/support/shop';

const zurich = { name: 'Anna Meier', line1: 'Bahnhofstrasse 1', postal_code: '8001', city: 'Zürich', region: 'ZH', country: 'CH' };
const parcel = { weight_g: 1320, length_mm: 300, width_mm: 210, height_mm: 50 };
const sender = { name: 'Druckerei Muster GmbH', line1: 'Druckweg 2', postal_code: '20457', city: 'Hamburg', country: 'DE' };
const customs = { hs_code: '491199', origin_country: 'DE', customs_description: 'Printed posters' };

let own: Shop;
let fake: FakeSendcloud;

beforeAll(async () => {
  own = await freshShop('Customs Shop');
  await enableInvoicing(own.accountId);
  fake = await startFakeSendcloud();
  const configured = await call('PUT', '/v1/carriers/sendcloud', {
    key: own.secretLive,
    body: { public_key: fake.publicKey, secret_key: fake.secretKey, base_url: fake.url, sender_address: sender },
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
});
afterAll(() => fake?.close());
afterEach(() => expectNoContractViolations(fake));

/** A ready order to Zürich: 500 posters of a product with `productCustoms`, and a manual proof line with `proofCustoms`. */
async function orderToZurich(key: string, productCustoms: Record<string, unknown>, proofCustoms: Record<string, unknown> = {}) {
  const customer = await newCustomer(key);
  const product = await newProduct(key, productCustoms);
  return readyOrder(key, {
    customer_id: customer.id,
    items: [
      { product_id: product.id, quantity: 500 },
      { product_id: product.id, quantity: 1, unit_price: 20, description: 'Proof', ...proofCustoms },
    ],
    shipping_address: zurich,
  });
}

const announces = () => fake.requests.filter((received) => received.method === 'POST' && received.path === '/shipments/announce');

describe('customs fields', () => {
  it('are kept on products and copied onto order lines; a manual line sends its own', async () => {
    const product = await newProduct(own.secretTest, customs);
    const shown = await call('GET', `/v1/products/${product.id}`, { key: own.secretTest });
    expect(shown.body.data).toMatchObject(customs);
    const refused = await call('PUT', `/v1/products/${product.id}`, { key: own.secretTest, body: { hs_code: '12' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'hs_code' })]);
    const order = await orderToZurich(own.secretTest, customs, { hs_code: '4911990000', origin_country: 'AT' });
    expect(order.items[0]).toMatchObject(customs);
    expect(order.items[1]).toMatchObject({ hs_code: '4911990000', origin_country: 'AT', customs_description: 'Printed posters' });
  });
});

describe('a live Sendcloud shipment outside the EU customs area', () => {
  it('announces customs_information and one parcel item per line, invoice number = the order number without an invoice', async () => {
    const order = await orderToZurich(own.secretLive, customs);
    const before = announces().length;
    const created = await call('POST', '/v1/shipments', {
      key: own.secretLive,
      body: { order_id: order.id, carrier: 'sendcloud', service: 'dhl_express:worldwide', parcels: [parcel] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sent = announces()[before]!.body as { parcels: { parcel_items: Record<string, unknown>[] }[] };
    expect(sent).toMatchObject({
      to_address: { country_code: 'CH', state_province_code: 'CH-ZH' },
      customs_information: { invoice_number: order.order_number, export_reason: 'commercial_goods', export_type: 'commercial_b2c' },
    });
    const items = sent.parcels[0]!.parcel_items;
    expect(items).toEqual([
      expect.objectContaining({ item_id: '1', description: 'Printed posters', quantity: 500, hs_code: '491199', origin_country: 'DE' }),
      expect.objectContaining({ item_id: '2', quantity: 1, price: { value: '20.00', currency: 'EUR' }, hs_code: '491199' }),
    ]);
  });

  it("declares the order's invoice number when the order has an invoice", async () => {
    const order = await orderToZurich(own.secretLive, customs);
    const invoiced = await invoiceOrder(own.secretLive, order.id);
    const before = announces().length;
    const created = await call('POST', '/v1/shipments', {
      key: own.secretLive,
      body: { order_id: order.id, carrier: 'sendcloud', service: 'dhl_express:worldwide', parcels: [parcel] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(announces()[before]!.body).toMatchObject({ customs_information: { invoice_number: invoiced.invoice_number } });
  });

  it('refuses (422) a line without an HS code, naming it, before anything is reserved or sent; test mode alike', async () => {
    const order = await orderToZurich(own.secretLive, { origin_country: 'DE' });
    const before = fake.requests.length;
    const refused = await call('POST', '/v1/shipments', {
      key: own.secretLive,
      body: { order_id: order.id, carrier: 'sendcloud', service: 'dhl_express:worldwide', parcels: [parcel] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({ field: 'items.1.hs_code', message: expect.stringContaining('line 1') }),
      expect.objectContaining({ field: 'items.2.hs_code', message: expect.stringContaining('line 2 (Proof)') }),
    ]);
    expect(fake.requests.length).toBe(before);
    expect((await call('GET', `/v1/orders/${order.id}/shipments`, { key: own.secretLive })).body.data).toEqual([]);

    const sandbox = await orderToZurich(own.secretTest, {});
    const test = await call('POST', '/v1/shipments', {
      key: own.secretTest,
      body: { order_id: sandbox.id, carrier: 'sendcloud', service: 'dhl_express:worldwide', parcels: [parcel] },
    });
    expect(test.status).toBe(422);
    expect(test.body.error.details?.map((detail) => detail.field)).toEqual([
      'items.1.hs_code',
      'items.1.origin_country',
      'items.2.hs_code',
      'items.2.origin_country',
    ]);
  });
});

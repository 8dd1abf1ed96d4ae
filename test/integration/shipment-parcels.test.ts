/**
 * A live Sendcloud shipment of several parcels, over HTTP: every parcel is followed — by its signed
 * callbacks and by its own tracking number on a refresh — and the shipment is delivered (the order
 * completed, `shipment.delivered` written) only when every parcel is, once. The fake holds the
 * tracking requests to the v3 contract too. A return label made at Sendcloud's returns API, its
 * parcel's callbacks moving the return (not the shipment) until it arrives back: `shipment.returned`;
 * its label PDF fetched once from the return parcel's label document, then served from storage.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Tenant } from '#shared/auth/principal';
import { call } from '#test/support/http';
import { newCustomer, newProduct } from '#test/support/orders';
import { expectNoContractViolations, startFakeSendcloud, type FakeSendcloud } from '#test/support/sendcloud-fake';
import { carried, storedEvents } from '#test/support/store';
import { freshShop, readyOrder, type Shop } from '#test/support/shop';

const address = { name: 'Anna Schmidt', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
const parcel = { weight_g: 1320, length_mm: 300, width_mm: 210, height_mm: 50 };
const sender = { name: 'Druckerei Muster GmbH', line1: 'Druckweg 2', postal_code: '20457', city: 'Hamburg', country: 'DE' };

let own: Shop;
let fake: FakeSendcloud;
let webhookUrl: string;
const live = (): Tenant => ({ accountId: own.accountId, mode: 'live' });

beforeAll(async () => {
  own = await freshShop('Parcels Shop');
  fake = await startFakeSendcloud();
  const configured = await call('PUT', '/v1/carriers/sendcloud', {
    key: own.secretLive,
    body: { public_key: fake.publicKey, secret_key: fake.secretKey, base_url: fake.url, sender_address: sender },
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  webhookUrl = configured.body.data.webhook_url;
});
afterAll(() => fake?.close());
afterEach(() => expectNoContractViolations(fake));

async function shipTwoParcels() {
  const customer = await newCustomer(own.secretLive);
  const product = await newProduct(own.secretLive);
  const order = await readyOrder(own.secretLive, {
    customer_id: customer.id,
    items: [{ product_id: product.id, quantity: 500 }],
    shipping_address: address,
  });
  const created = await call('POST', '/v1/shipments', {
    key: own.secretLive,
    body: { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel, parcel] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { order, shipment: created.body.data };
}

const kindsOf = async (orderId: number) =>
  (await storedEvents(live()))
    .filter((event) => carried(event, 'order')?.id === orderId || carried(event, 'shipment')?.order_id === orderId)
    .map((event) => String(event.kind));

describe('a shipment of several parcels', () => {
  it('lists each parcel with its own tracking number and status', async () => {
    const { shipment } = await shipTwoParcels();
    expect(shipment.parcel_tracking).toEqual(
      shipment.carrier_parcel_ids.map((parcel_id) => ({
        parcel_id,
        tracking_number: expect.stringMatching(/^3SYZXG/),
        status: 'label_created',
      })),
    );
    expect(new Set(shipment.parcel_tracking.map((entry) => entry.tracking_number)).size).toBe(2);
  });

  it('is delivered — the order completed, shipment.delivered written once — only when every parcel is (callbacks)', async () => {
    const { order, shipment } = await shipTwoParcels();
    const base = Date.now();
    const callback = (parcelIndex: number, statusId: number, message: string, minutes: number) => ({
      action: 'parcel_status_changed',
      timestamp: base + minutes * 60_000,
      carrier_status_change_timestamp: null,
      parcel: { id: Number(shipment.carrier_parcel_ids[parcelIndex]), status: { id: statusId, message } },
    });
    const read = async () => (await call('GET', `/v1/shipments/${shipment.id}`, { key: own.secretLive })).body.data;

    expect((await fake.sendCallback(webhookUrl, callback(0, 11, 'Delivered', 2))).body.data.outcome).toBe('applied');
    expect(await read()).toMatchObject({ status: 'in_transit', delivered_at: null });
    expect((await read()).parcel_tracking.map((entry) => entry.status)).toEqual(['delivered', 'label_created']);
    expect((await call('GET', `/v1/orders/${order.id}`, { key: own.secretLive })).body.data.status).toBe('shipped');
    // The second parcel's older report still counts for it.
    expect((await fake.sendCallback(webhookUrl, callback(1, 22, 'Shipment picked up by driver', 1))).body.data.outcome).toBe('recorded');
    expect((await fake.sendCallback(webhookUrl, callback(1, 11, 'Delivered', 3))).body.data.outcome).toBe('applied');
    const delivered = await read();
    expect(delivered.status).toBe('delivered');
    expect(delivered.events.at(-1)).toMatchObject({ status: 'delivered', description: 'Parcel 2 of 2: Delivered' });
    expect((await call('GET', `/v1/orders/${order.id}`, { key: own.secretLive })).body.data.status).toBe('completed');
    expect((await fake.sendCallback(webhookUrl, callback(1, 11, 'Delivered', 3))).body.data.outcome).toBe('duplicate');
    expect((await fake.sendCallback(webhookUrl, callback(0, 11, 'Delivered', 4))).body.data.outcome).toBe('recorded');
    expect((await kindsOf(order.id)).filter((kind) => kind === 'shipment.delivered')).toHaveLength(1);
  });

  it("asks each parcel's tracking number on a refresh, and the shipment follows all of them", async () => {
    const { shipment } = await shipTwoParcels();
    const [first, second] = shipment.parcel_tracking.map((entry) => entry.tracking_number!);
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    fake.setTracking(first!, [
      { event_at: at(1), event_type: 'carrier', status_code: 'delivered', status_type: 'success', sub_status_code: 'none' },
    ]);
    fake.setTracking(second!, [
      { event_at: at(1), event_type: 'carrier', status_code: 'in_delivery', status_description: 'With the driver', status_type: 'success' },
    ]);
    const before = fake.requests.length;
    const tracked = await call('GET', `/v1/shipments/${shipment.id}/tracking`, { key: own.secretLive });
    expect(tracked.status, JSON.stringify(tracked.body)).toBe(200);
    expect(tracked.body.data.status).toBe('out_for_delivery');
    expect(
      fake.requests
        .slice(before)
        .map((received) => received.path)
        .sort(),
    ).toEqual([`/parcels/tracking/${first}`, `/parcels/tracking/${second}`].sort());
  });
});

describe('a live return label', () => {
  it("is announced at Sendcloud's returns API, and its parcel's callbacks move the return until it arrives back", async () => {
    const { order, shipment } = await shipTwoParcels();
    const base = Date.now();
    const callback = (parcelId: string | number, statusId: number, minutes: number) => ({
      action: 'parcel_status_changed',
      timestamp: base + minutes * 60_000,
      carrier_status_change_timestamp: null,
      parcel: { id: Number(parcelId), status: { id: statusId, message: statusId === 11 ? 'Delivered' : 'En route' } },
    });
    for (const parcelId of shipment.carrier_parcel_ids) await fake.sendCallback(webhookUrl, callback(parcelId, 11, 1));
    const made = await call('POST', `/v1/shipments/${shipment.id}/return-label`, {
      key: own.secretLive,
      body: { service: 'dpd:return/return', parcel: { weight_g: 800, length_mm: 300, width_mm: 210, height_mm: 50 } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const returned = made.body.data.return_shipment!;
    expect(returned).toMatchObject({ status: 'label_created', tracking_number: expect.stringMatching(/^3SRETN/) });
    const sent = fake.requests.find((received) => received.path === '/returns/announce-synchronously')!.body;
    expect(sent).toMatchObject({
      from_address: { name: 'Anna Schmidt', country_code: 'DE' },
      to_address: { name: sender.name, city: 'Hamburg' },
      ship_with: { type: 'shipping_option_code', shipping_option_code: 'dpd:return/return' },
      weight: { value: 0.8, unit: 'kg' },
      order_number: order.order_number,
      external_reference: `${shipment.external_reference}:return`,
    });

    expect((await fake.sendCallback(webhookUrl, callback(returned.carrier_parcel_id, 22, 2))).body.data).toMatchObject({
      shipment_id: shipment.id,
      outcome: 'applied',
    });
    expect((await fake.sendCallback(webhookUrl, callback(returned.carrier_parcel_id, 11, 3))).body.data.outcome).toBe('applied');
    const read = (await call('GET', `/v1/shipments/${shipment.id}`, { key: own.secretLive })).body.data;
    expect(read.status).toBe('delivered');
    expect(read.return_shipment).toMatchObject({ status: 'delivered', arrived_at: expect.any(String) });
    expect((await fake.sendCallback(webhookUrl, callback(returned.carrier_parcel_id, 11, 3))).body.data.outcome).toBe('duplicate');
    expect((await kindsOf(order.id)).filter((kind) => kind === 'shipment.returned')).toHaveLength(1);
  });

  it("serves the return label from the return parcel's label document once, then from storage; 404 before a return", async () => {
    const { shipment } = await shipTwoParcels();
    const download = () =>
      fetch(`${inject('fixtures').api}/v1/shipments/${shipment.id}/return-label`, {
        headers: { Authorization: `Bearer ${own.secretLive}`, Accept: 'application/pdf' },
      });
    const none = await download();
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain('no return label yet');

    await fake.sendCallback(webhookUrl, {
      action: 'parcel_status_changed',
      timestamp: Date.now(),
      carrier_status_change_timestamp: null,
      parcel: { id: Number(shipment.carrier_parcel_ids[0]), status: { id: 11, message: 'Delivered' } },
    });
    const made = await call('POST', `/v1/shipments/${shipment.id}/return-label`, {
      key: own.secretLive,
      body: { service: 'dpd:return/return' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const returnParcel = made.body.data.return_shipment!.carrier_parcel_id;

    const before = fake.requests.length;
    const first = await download();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('application/pdf');
    expect(first.headers.get('content-disposition')).toBe(`inline; filename="shipment-${shipment.id}-return-label.pdf"`);
    expect(first.headers.get('x-document-cached')).toBe('false');
    expect(
      Buffer.from(await first.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    const asked = fake.requests.slice(before);
    expect(asked.map((received) => `${received.method} ${received.path}`)).toEqual([`GET /parcels/${returnParcel}/documents/label`]);
    expect(asked[0]!.headers.accept).toBe('application/pdf');

    const second = await download();
    expect(second.status).toBe(200);
    expect(second.headers.get('x-document-cached')).toBe('true');
    expect(
      Buffer.from(await second.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    const url = await call('GET', `/v1/shipments/${shipment.id}/return-label?format=url`, { key: own.secretLive });
    expect(url.status, JSON.stringify(url.body)).toBe(200);
    expect(url.body.data.url).toEqual(expect.any(String));
    expect(fake.requests.length).toBe(before + 1);
  });
});

/**
 * Shipments over HTTP: a sandbox shipment walked to delivered moves its order to shipped and
 * completed (each milestone's event once); the label downloads as a PDF; Sendcloud (live mode)
 * through the adapter against a local fake that answers as Sendcloud's documentation says, with
 * signed callbacks: wrong signatures refused, duplicates and late reports changing nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { shipmentKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { nextId } from '#shared/db/counters';
import { transactWrite } from '#shared/db/transactions';
import { requestHash, reservedShipment } from '#shared/shipments/creation';
import { ShipmentSchema, type ShipmentCreate } from '#shared/shipments/schema';
import { creatingShipmentPut, orderShippingWrite } from '#shared/shipments/stored';
import { createApiKey } from '#shared/accounts/service';
import { auditRecords } from '#test/support/audit';
import { call } from '#test/support/http';
import { walkByCursor } from '#test/support/cursor-walk';
import { newCustomer, newOrder, newProduct } from '#test/support/orders';
import { expectNoContractViolations, startFakeSendcloud, type FakeSendcloud } from '#test/support/sendcloud-fake';
import { carried, storedEvents } from '#test/support/store';
import { freshShop, readyOrder, type Shop } from '#test/support/shop';
import type { DataOf } from '#test/support/api-types';

const address = { name: 'Anna Schmidt', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
const parcel = { weight_g: 1320, length_mm: 300, width_mm: 210, height_mm: 50 };
/** The shop's sender on live labels: Sendcloud's v3 announce requires one (`from_address`). */
const sender = { name: 'Druckerei Muster GmbH', line1: 'Druckweg 2', postal_code: '20457', city: 'Hamburg', country: 'DE' };

let own: Shop;
let fake: FakeSendcloud;
const live = (): Tenant => ({ accountId: own.accountId, mode: 'live' });

beforeAll(async () => {
  own = await freshShop('Shipping Shop');
  fake = await startFakeSendcloud();
});
afterAll(() => fake?.close());
// Every request the fake received must be one Sendcloud's v3 contract accepts.
afterEach(() => expectNoContractViolations(fake));

/** An order of `key`'s mode to ship (a customer and a product of its own, 500 pieces and a proof, to `address`). */
async function shippable(key: string) {
  const customer = await newCustomer(key);
  const product = await newProduct(key);
  return {
    customer_id: customer.id,
    items: [
      { product_id: product.id, quantity: 500 },
      { product_id: product.id, quantity: 1, unit_price: 20, description: 'Proof' },
    ],
    shipping_address: address,
  };
}

/** A new order to ship, produced to ready (test/support/shop.ts). */
const readyToShip = async (key: string) => readyOrder(key, await shippable(key));

const ship = (key: string, body: Record<string, unknown>) => call('POST', '/v1/shipments', { key, body });
const simulate = (key: string, id: number, body: Record<string, unknown>) => call('POST', `/v1/shipments/${id}/simulate`, { key, body });
const orderOf = async (key: string, id: number) => (await call('GET', `/v1/orders/${id}`, { key })).body.data;

/** Kinds of the events about one order or its shipments, sorted. */
async function eventKinds(tenant: Tenant, orderId: number): Promise<string[]> {
  return (await storedEvents(tenant))
    .filter((event) => carried(event, 'order')?.id === orderId || carried(event, 'shipment')?.order_id === orderId)
    .map((event) => String(event.kind))
    .sort();
}

describe('a sandbox shipment (test mode)', () => {
  it('walks a ready order to shipped and completed with simulate, each milestone once; the label is a PDF', async () => {
    const key = own.secretTest;
    const order = await readyToShip(key);
    const created = await ship(key, { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const shipment = created.body.data;
    ShipmentSchema.strict().parse(shipment);
    expect(shipment).toMatchObject({
      order_id: order.id,
      order_number: order.order_number,
      carrier: 'sendcloud',
      service: 'postnl:standard',
      status: 'label_created',
      partial: false,
      items: [
        { line_id: 1, quantity: 500 },
        { line_id: 2, quantity: 1 },
      ],
      address: { name: 'Anna Schmidt', city: 'Berlin', country: 'DE' },
      label: { content_type: 'application/pdf', parcels: 1, url: `/v1/shipments/${shipment.id}/label` },
      events: [{ status: 'label_created', description: 'Label created' }],
    });
    expect(shipment.tracking_number).toMatch(/^SBX\d{12}$/);
    expect(shipment.tracking_url).toContain(shipment.tracking_number);

    // The label: a real PDF, from the documents bucket.
    const { api } = inject('fixtures');
    const pdf = await fetch(`${api}/v1/shipments/${shipment.id}/label`, {
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/pdf' },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="shipment-${shipment.id}-label-1.pdf"`);
    expect(pdf.headers.get('x-document-cached')).toBe('true');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const url = await call('GET', `/v1/shipments/${shipment.id}/label?format=url`, { key });
    expect(url.body.data.url).toContain(`shipments/${shipment.id}/label-1.pdf`);
    expect((await call('GET', `/v1/shipments/${shipment.id}/label?parcel=2`, { key })).status).toBe(404);

    const before = await eventKinds(own.tenant, order.id);
    const base = Date.now();
    const t = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    const moved = await simulate(key, shipment.id, { status: 'in_transit', location: 'Hamburg', occurred_at: t(1) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.status).toBe('in_transit');
    expect((await orderOf(key, order.id)).status).toBe('shipped');
    expect((await simulate(key, shipment.id, { status: 'out_for_delivery', occurred_at: t(2) })).body.data.status).toBe('out_for_delivery');
    // The same report twice is one; a repeated in_transit does not ship the order again.
    expect((await simulate(key, shipment.id, { status: 'out_for_delivery', occurred_at: t(2) })).body.data.events).toHaveLength(3);
    const delivered = await simulate(key, shipment.id, { status: 'delivered', location: 'Berlin', occurred_at: t(3) });
    expect(delivered.body.data).toMatchObject({ status: 'delivered', delivered_at: t(3) });
    expect((await orderOf(key, order.id)).status).toBe('completed');
    // A late in_transit never moves it back, and no milestone fires again.
    const late = await simulate(key, shipment.id, { status: 'in_transit', occurred_at: t(1.5) });
    expect(late.body.data.status).toBe('delivered');
    await simulate(key, shipment.id, { status: 'delivered', occurred_at: t(3) });

    const after = await eventKinds(own.tenant, order.id);
    const count = (kind: string, list: string[]) => list.filter((candidate) => candidate === kind).length;
    expect(count('order.shipped', after) - count('order.shipped', before)).toBe(1);
    expect(count('shipment.delivered', after) - count('shipment.delivered', before)).toBe(1);
    expect(count('order.completed', after) - count('order.completed', before)).toBe(1);

    const tracking = await call('GET', `/v1/shipments/${shipment.id}/tracking`, { key });
    expect(tracking.body.data).toMatchObject({ shipment_id: shipment.id, status: 'delivered', tracking_number: shipment.tracking_number });
    expect(tracking.body.data.events.map((event: { status: string }) => event.status)).toEqual([
      'label_created',
      'in_transit',
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
  });

  it('ships only ready orders (409 otherwise), partial shipments by line, and cancels before pickup', async () => {
    const key = own.secretTest;
    const pending = await newOrder(key, await shippable(key));
    const refused = await ship(key, { order_id: pending.id, carrier: 'sandbox', service: 'standard', parcels: [parcel] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('only ready orders ship');
    expect((await ship(key, { order_id: 999999, carrier: 'sandbox', service: 'standard', parcels: [parcel] })).status).toBe(404);

    const order = await readyToShip(key);
    const first = await ship(key, {
      order_id: order.id,
      carrier: 'sandbox',
      service: 'standard',
      parcels: [parcel],
      items: [{ line_id: 1, quantity: 200 }],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ partial: true, items: [{ line_id: 1, quantity: 200 }] });
    const tooMuch = await ship(key, {
      order_id: order.id,
      carrier: 'sandbox',
      service: 'standard',
      parcels: [parcel],
      items: [{ line_id: 1, quantity: 301 }],
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.details).toEqual([{ field: 'items[0].quantity', message: 'only 300 of line 1 are left to ship' }]);

    // Cancelled before pickup: its quantities are free again.
    const cancelled = await call('POST', `/v1/shipments/${first.body.data.id}/cancel`, { key });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect((await call('POST', `/v1/shipments/${first.body.data.id}/cancel`, { key })).status).toBe(409);
    const rest = await ship(key, { order_id: order.id, carrier: 'sandbox', service: 'standard', parcels: [parcel, parcel] });
    expect(rest.status).toBe(201);
    expect(rest.body.data.items).toEqual([
      { line_id: 1, quantity: 500 },
      { line_id: 2, quantity: 1 },
    ]);
    expect(rest.body.data.label!.parcels).toBe(2);
    expect((await ship(key, { order_id: order.id, carrier: 'sandbox', service: 'standard', parcels: [parcel] })).status).toBe(409);
    await simulate(key, rest.body.data.id, { status: 'in_transit' });
    expect((await call('POST', `/v1/shipments/${rest.body.data.id}/cancel`, { key })).status).toBe(409);

    // Lists: the order's, and all of them filtered.
    const ofOrder = await call('GET', `/v1/orders/${order.id}/shipments`, { key });
    expect(ofOrder.body.data.map((shipment: { id: number }) => shipment.id)).toEqual([rest.body.data.id, first.body.data.id]);
    expect(ofOrder.body.pagination).toMatchObject({ total: 2 });
    const byStatus = await call('GET', `/v1/shipments?order_id=${order.id}&status=cancelled`, { key });
    expect(byStatus.body.data.map((shipment: { id: number }) => shipment.id)).toEqual([first.body.data.id]);
    const transit = await call('GET', '/v1/shipments?status=in_transit', { key });
    expect(transit.body.data.map((shipment: { id: number }) => shipment.id)).toContain(rest.body.data.id);
    const sandbox = await call('GET', '/v1/shipments?carrier=sandbox&status=cancelled', { key });
    expect(sandbox.body.data.map((shipment: { id: number }) => shipment.id)).toContain(first.body.data.id);
    expect(
      (await call('GET', '/v1/shipments?carrier=sendcloud&status=cancelled', { key })).body.data.map((s: { id: number }) => s.id),
    ).not.toContain(first.body.data.id);
    expect((await call('GET', '/v1/orders/999999/shipments', { key })).status).toBe(404);
  });

  it('pages every shipment list by cursor, a shipment keeping its place when its status changes between two pages', async () => {
    const shop = await freshShop('Shipment Cursors');
    const key = shop.secretTest;
    const [first, second] = [await readyToShip(key), await readyToShip(key)];
    const made: { id: number; order: number; status: string }[] = [];
    // Partial shipments of 50 pieces of line 1: five of the first order, three of the second, interleaved.
    for (const order of [first, second, first, first, second, first, second, first]) {
      const response = await ship(key, {
        order_id: order.id,
        carrier: 'sandbox',
        service: 'standard',
        parcels: [parcel],
        items: [{ line_id: 1, quantity: 50 }],
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      made.push({ id: response.body.data.id, order: order.id, status: 'label_created' });
    }
    for (const shipment of [made[1]!, made[4]!, made[5]!]) {
      expect((await simulate(key, shipment.id, { status: 'in_transit' })).status).toBe(200);
      shipment.status = 'in_transit';
    }
    const newestFirst = (shipments: typeof made) => shipments.map(({ id }) => id).toSorted((a, b) => b - a);

    // The cursor shipment, the page's keys and one more, its items, the total; an order's: the order with
    // its summary and its shipments (read whole, at most 50).
    const walk = (path: string, { counted = 0, order = false } = {}) =>
      walkByCursor(`${path}${path.includes('?') ? '&' : '?'}per_page=2`, key, {
        calls: 4,
        items: order ? 1 + 2 + made.length : 1 + 3 + 2 + Math.max(1, counted),
      });
    expect(await walk('/v1/shipments')).toEqual(newestFirst(made));
    const labelled = made.filter((shipment) => shipment.status === 'label_created');
    expect(await walk('/v1/shipments?status=label_created')).toEqual(newestFirst(labelled));
    expect(await walk('/v1/shipments?carrier=sandbox', { counted: made.length })).toEqual(newestFirst(made));
    const moving = made.filter((shipment) => shipment.status === 'in_transit');
    expect(await walk('/v1/shipments?carrier=sandbox&status=in_transit', { counted: moving.length })).toEqual(newestFirst(moving));
    const ofFirst = made.filter((shipment) => shipment.order === first.id);
    expect(await walk(`/v1/shipments?order_id=${first.id}`, { order: true })).toEqual(newestFirst(ofFirst));
    expect(await walk(`/v1/orders/${second.id}/shipments`, { order: true })).toEqual(
      newestFirst(made.filter((shipment) => shipment.order === second.id)),
    );

    // The page's last shipment is cancelled meanwhile: the next page of the labelled ones goes on after its place.
    const page = await call('GET', '/v1/shipments?status=label_created&per_page=2', { key });
    const last = page.body.data[1]!.id;
    expect((await call('POST', `/v1/shipments/${last}/cancel`, { key })).status).toBe(200);
    const next = await call('GET', `/v1/shipments?status=label_created&per_page=2&starting_after=${last}`, { key });
    expect(next.body.data.map((shipment: { id: number }) => shipment.id)).toEqual(newestFirst(labelled).slice(2, 4));
    const orderNext = await call('GET', `/v1/orders/${first.id}/shipments?status=label_created&starting_after=${last}`, { key });
    expect(orderNext.body.data.map((shipment: { id: number }) => shipment.id)).toEqual(
      newestFirst(labelled.filter((shipment) => shipment.order === first.id && shipment.id < last)),
    );

    for (const [path, field, requestKey] of [
      [`/v1/shipments?starting_after=${made.at(-1)!.id + 1}`, 'starting_after', key],
      [`/v1/shipments?starting_after=${made[0]!.id}`, 'starting_after', shop.secretLive],
      [`/v1/orders/${first.id}/shipments?starting_after=${made.at(-1)!.id + 1}`, 'starting_after', key],
      [`/v1/shipments?starting_after=${made[0]!.id}&page=2`, 'page', key],
    ] as const) {
      const response = await call('GET', path, { key: requestKey });
      expect(response.status, path).toBe(422);
      expect(response.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual([field]);
    }
    const unknown = await call('GET', `/v1/shipments?starting_after=${made.at(-1)!.id + 1}`, { key });
    expect(unknown.body.error.details![0]!.message).toBe(`No shipment with id ${made.at(-1)!.id + 1}`);
    // An unknown order is a 404 whatever the cursor.
    expect((await call('GET', `/v1/orders/999999/shipments?starting_after=${made.at(-1)!.id + 1}`, { key })).status).toBe(404);
  });

  it('never reaches Sendcloud with a test key, even with test credentials set', async () => {
    const key = own.secretTest;
    const configured = await call('PUT', '/v1/carriers/sendcloud', {
      key,
      body: { public_key: fake.publicKey, secret_key: fake.secretKey, base_url: fake.url },
    });
    expect(configured.status, JSON.stringify(configured.body)).toBe(200);
    const order = await readyToShip(key);
    const calls = fake.requests.length;
    const created = await ship(key, { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] });
    expect(created.status).toBe(201);
    expect(created.body.data.tracking_number).toMatch(/^SBX/);
    await call('GET', `/v1/shipments/${created.body.data.id}/tracking`, { key });
    expect(fake.requests.length).toBe(calls);
  });
});

describe('Sendcloud (live mode)', () => {
  let webhookUrl: string;

  beforeAll(async () => {
    const configured = await call('PUT', '/v1/carriers/sendcloud', {
      key: own.secretLive,
      body: { public_key: fake.publicKey, secret_key: fake.secretKey, base_url: fake.url, sender_address: sender },
    });
    expect(configured.status, JSON.stringify(configured.body)).toBe(200);
    expect(configured.body.data).toMatchObject({
      carrier: 'sendcloud',
      public_key: fake.publicKey,
      secret_hint: `…${fake.secretKey.slice(-4)}`,
    });
    expect(JSON.stringify(configured.body)).not.toContain(fake.secretKey);
    webhookUrl = configured.body.data.webhook_url;
    expect(webhookUrl).toMatch(new RegExp(`/v1/carriers/sendcloud/webhook/${own.accountId}\\.live\\.`));
    const stored = await dynamo().send(new GetCommand({ TableName: tableName(), Key: shipmentKeys.carrierSettings(live(), 'sendcloud') }));
    expect(stored.Item!.secret_key).toMatch(/^enc2\.carrier-credentials\./);
    const listed = await call('GET', '/v1/carriers', { key: own.secretLive });
    expect(listed.body.data).toEqual([configured.body.data]);
  });

  it('refuses the sandbox carrier (422) and simulate (403) with a live key', async () => {
    const order = await readyToShip(own.secretLive);
    expect((await ship(own.secretLive, { order_id: order.id, carrier: 'sandbox', service: 'x', parcels: [parcel] })).status).toBe(422);
    const created = await ship(own.secretLive, { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const refused = await simulate(own.secretLive, created.body.data.id, { status: 'delivered' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
  });

  it('records nothing when Sendcloud answers 201 with ANNOUNCEMENT_FAILED (502 with its message)', async () => {
    const order = await readyToShip(own.secretLive);
    const failed = await ship(own.secretLive, {
      order_id: order.id,
      carrier: 'sendcloud',
      service: 'fake:announcement_failed',
      parcels: [parcel],
    });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: 'carrier_error' });
    expect(failed.body.error.message).toContain('Service error: the carrier is unreachable');
    expect((await call('GET', `/v1/orders/${order.id}/shipments`, { key: own.secretLive })).body.data).toEqual([]);
    const summary = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: shipmentKeys.orderShipping(live(), order.id), ConsistentRead: true }),
    );
    expect(summary.Item!.shipments).toEqual([]);
    expect((await orderOf(own.secretLive, order.id)).status).toBe('ready');
  });

  it('retries after 503 and 429 and makes one label', async () => {
    const order = await readyToShip(own.secretLive);
    fake.script('POST /shipments/announce', [{ status: 503 }, { status: 429, headers: { 'Retry-After': '0' } }]);
    const created = await ship(own.secretLive, { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const made = [...fake.shipments.values()].filter((shipment) => shipment.external_reference_id === created.body.data.external_reference);
    expect(made).toHaveLength(1);
    expect(created.body.data.carrier_shipment_id).toBe(made[0]!.id);
    const pdf = await call('GET', `/v1/shipments/${created.body.data.id}/label?format=url`, { key: own.secretLive });
    expect(pdf.status).toBe(200);
  });

  it('takes signed callbacks only: 401 otherwise; duplicates and late reports change nothing; the order ships and completes once', async () => {
    const order = await readyToShip(own.secretLive);
    const created = await ship(own.secretLive, { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] });
    expect(created.status).toBe(201);
    const shipment = created.body.data;
    const parcelId = Number(shipment.carrier_parcel_ids[0]);
    const base = Date.now();
    const callback = (statusId: number, message: string, offsetMinutes: number) => ({
      action: 'parcel_status_changed',
      timestamp: base + offsetMinutes * 60_000,
      carrier_status_change_timestamp: null,
      parcel: { id: parcelId, tracking_number: shipment.tracking_number, status: { id: statusId, message } },
    });

    const unsigned = await fake.sendCallback(webhookUrl, callback(22, 'Shipment picked up by driver', 1), null);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error.code).toBe('unauthorized');
    expect((await fake.sendCallback(webhookUrl, callback(22, 'Shipment picked up by driver', 1), 'not-the-secret')).status).toBe(401);
    expect(
      (
        await fake.sendCallback(
          webhookUrl.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
          callback(22, 'x', 1),
        )
      ).status,
    ).toBe(401);
    expect((await call('GET', `/v1/shipments/${shipment.id}`, { key: own.secretLive })).body.data.status).toBe('label_created');

    const before = await eventKinds(live(), order.id);
    const picked = await fake.sendCallback(webhookUrl, callback(22, 'Shipment picked up by driver', 1));
    expect(picked).toMatchObject({ status: 200, body: { data: { received: true, shipment_id: shipment.id, outcome: 'applied' } } });
    expect((await orderOf(own.secretLive, order.id)).status).toBe('shipped');
    const again = await fake.sendCallback(webhookUrl, callback(22, 'Shipment picked up by driver', 1));
    expect(again.body.data.outcome).toBe('duplicate');

    expect((await fake.sendCallback(webhookUrl, callback(11, 'Delivered', 3))).body.data.outcome).toBe('applied');
    const late = await fake.sendCallback(webhookUrl, callback(91, 'Parcel en route', 2));
    expect(late.body.data.outcome).toBe('stale');
    const read = (await call('GET', `/v1/shipments/${shipment.id}`, { key: own.secretLive })).body.data;
    expect(read.status).toBe('delivered');
    expect(read.events.map((event: { carrier_status: string | null }) => event.carrier_status)).toEqual([null, '22', '91', '11']);
    expect((await orderOf(own.secretLive, order.id)).status).toBe('completed');
    expect((await fake.sendCallback(webhookUrl, callback(11, 'Delivered', 3))).body.data.outcome).toBe('duplicate');
    // Another action, a parcel not made here: acknowledged, nothing changes.
    expect((await fake.sendCallback(webhookUrl, { action: 'integration_updated', timestamp: base })).body.data.outcome).toBe('ignored');
    expect(
      (await fake.sendCallback(webhookUrl, { ...callback(11, 'Delivered', 4), parcel: { id: 1, status: { id: 11 } } })).body.data.outcome,
    ).toBe('ignored');

    const after = await eventKinds(live(), order.id);
    const added = after.slice();
    for (const kind of before) added.splice(added.indexOf(kind), 1);
    expect(added).toEqual(['order.completed', 'order.shipped', 'order.updated', 'order.updated', 'shipment.delivered']);
  });

  it('refreshes tracking from Sendcloud when it is old, applies it like a callback, and caches it for a few minutes', async () => {
    const order = await readyToShip(own.secretLive);
    const created = await ship(own.secretLive, { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] });
    const shipment = created.body.data;
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    fake.setTracking(shipment.tracking_number!, [
      {
        event_at: at(1),
        event_type: 'carrier',
        status_code: 'IN_TRANSIT',
        status_description: 'At sorting centre',
        status_type: 'in_transit',
      },
    ]);
    const first = await call('GET', `/v1/shipments/${shipment.id}/tracking`, { key: own.secretLive });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'in_transit', refreshed_at: expect.any(String) });
    expect(first.body.data.events.at(-1)).toMatchObject({ status: 'in_transit', description: 'At sorting centre' });
    expect((await orderOf(own.secretLive, order.id)).status).toBe('shipped');
    const asked = fake.requests.filter((received) => received.path.startsWith('/parcels/tracking/')).length;
    expect((await call('GET', `/v1/shipments/${shipment.id}/tracking`, { key: own.secretLive })).body.data.events).toHaveLength(2);
    expect(fake.requests.filter((received) => received.path.startsWith('/parcels/tracking/')).length).toBe(asked);
  });

  it('cancels at Sendcloud before pickup, and passes its refusal on as 409 with the reason', async () => {
    const order = await readyToShip(own.secretLive);
    const created = await ship(own.secretLive, { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] });
    const id = created.body.data.id;
    const cancelled = await call('POST', `/v1/shipments/${id}/cancel`, { key: own.secretLive });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');

    const queued = await ship(own.secretLive, {
      order_id: order.id,
      carrier: 'sendcloud',
      service: 'fake:queued_cancel',
      parcels: [parcel],
    });
    const requested = await call('POST', `/v1/shipments/${queued.body.data.id}/cancel`, { key: own.secretLive });
    expect(requested.body.data).toMatchObject({ status: 'label_created', cancel_requested_at: expect.any(String) });
    const refused = await call('POST', `/v1/shipments/${queued.body.data.id}/cancel`, { key: own.secretLive });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('This shipment is already being cancelled.');
  });
});

describe('the sender of a live Sendcloud shipment', () => {
  it("is the settings' address, else the company's, else a Sendcloud sender address id; with none, 422 before any call to Sendcloud", async () => {
    const shop = await freshShop('Senderless Shop');
    const key = shop.secretLive;
    const configure = (extra: Record<string, unknown>) =>
      call('PUT', '/v1/carriers/sendcloud', {
        key,
        body: { public_key: fake.publicKey, secret_key: fake.secretKey, base_url: fake.url, ...extra },
      });
    const lastAnnounce = () =>
      fake.requests.filter((received) => received.path === '/shipments/announce').at(-1)?.body as Record<string, unknown>;
    expect((await configure({})).status).toBe(200);
    const order = await readyToShip(key);
    const asked = { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] };

    // No sender anywhere: refused before anything is reserved or sent.
    const calls = fake.requests.length;
    const refused = await ship(key, asked);
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.code).toBe('validation_failed');
    expect(refused.body.error.details).toEqual([
      { field: 'sender_address', message: expect.stringContaining('PUT /v1/carriers/sendcloud') },
    ]);
    expect(refused.body.error.details![0]!.message).toContain('PUT /v1/account');
    expect(fake.requests.length).toBe(calls);
    expect((await call('GET', `/v1/orders/${order.id}/shipments`, { key })).body.data).toEqual([]);

    // A sender address configured in Sendcloud's panel, by id.
    const byId = await configure({ sender_address_id: 192 });
    expect(byId.body.data).toMatchObject({ sender_address: null, sender_address_id: 192 });
    const first = await ship(key, { ...asked, items: [{ line_id: order.items[0]!.id, quantity: 100 }] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(lastAnnounce().from_address).toEqual({ sender_address_id: 192 });

    // The company's address comes before the id…
    const company = { legal_name: 'Senderless GmbH', address: { ...sender, name: 'Versand' }, email: 'versand@senderless.example' };
    expect((await call('PUT', '/v1/account', { key, body: { company } })).status).toBe(200);
    const second = await ship(key, { ...asked, items: [{ line_id: order.items[0]!.id, quantity: 100 }] });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(lastAnnounce().from_address).toMatchObject({
      name: 'Senderless GmbH',
      address_line_1: 'Druckweg 2',
      email: 'versand@senderless.example',
    });

    // …and the settings' own sender address before both.
    expect((await configure({ sender_address_id: 192, sender_address: { ...sender, name: 'Lager Nord' } })).status).toBe(200);
    const third = await ship(key, { ...asked, items: [{ line_id: order.items[0]!.id, quantity: 100 }] });
    expect(third.status, JSON.stringify(third.body)).toBe(201);
    expect(lastAnnounce().from_address).toMatchObject({ name: 'Lager Nord', city: 'Hamburg', country_code: 'DE' });
  });
});

describe("changing a carrier's credentials", () => {
  it('needs account:write — a shipping key is refused — and is in the audit log without the credentials', async () => {
    const shop = await freshShop('Carrier Credentials Shop');
    const keyWith = async (scope: 'shipments:write' | 'account:write') =>
      (await createApiKey({ accountId: shop.accountId, mode: 'live', kind: 'secret', scopes: [scope] })).key;
    const [shipping, settings] = [await keyWith('shipments:write'), await keyWith('account:write')];
    const since = new Date(Date.now() - 1000).toISOString();
    const body = {
      public_key: 'pub_audited_probe',
      secret_key: 'sec_audited_0123456789',
      webhook_signature_key: 'whsig_audited_0123456789',
      base_url: fake.url,
    };

    const refused = await call('PUT', '/v1/carriers/sendcloud', { key: shipping, body });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: [{ field: 'scope', message: 'requires account:write' }],
    });
    expect((await call('GET', '/v1/carriers', { key: shop.secretLive })).body.data).toEqual([]);
    const changed = await call('PUT', '/v1/carriers/sendcloud', { key: settings, body });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    const logs = await auditRecords(shop.secretLive, `from=${encodeURIComponent(since)}&path_prefix=/v1/carriers/sendcloud`, 2);
    const records = logs.body.data.filter((record) => record.route === 'carriers.configure');
    expect(records.map((record) => [record.method, record.path, record.status, record.key_prefix])).toEqual([
      ['PUT', '/v1/carriers/sendcloud', 200, settings.slice(0, 12)],
      ['PUT', '/v1/carriers/sendcloud', 403, shipping.slice(0, 12)],
    ]);
    const text = JSON.stringify(logs.body);
    for (const value of [body.secret_key, body.webhook_signature_key, body.public_key, settings, shipping])
      expect(text).not.toContain(value);
  });
});

describe("a label Sendcloud made while its answer was lost (the tests' stack: 4 s deadline, 1.5 s per request)", () => {
  beforeAll(async () => {
    const body = { public_key: fake.publicKey, secret_key: fake.secretKey, base_url: fake.url, sender_address: sender };
    expect((await call('PUT', '/v1/carriers/sendcloud', { key: own.secretLive, body })).status).toBe(200);
  });

  const asked = (orderId: number) => ({ order_id: orderId, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] });
  const madeFor = (reference: string) => [...fake.shipments.values()].filter((shipment) => shipment.external_reference_id === reference);
  const announces = () => fake.requests.filter((received) => received.path === '/shipments/announce').length;
  const summaryOf = async (orderId: number) =>
    (
      await dynamo().send(
        new GetCommand({ TableName: tableName(), Key: shipmentKeys.orderShipping(live(), orderId), ConsistentRead: true }),
      )
    ).Item!;

  /**
   * The first attempt: Sendcloud carries the announce out (`acted`) but answers too late, then
   * answers nothing but 503s — announces and lookups — until the deadline. 502, and the reservation
   * is kept (marked unsettled) for the next attempt.
   */
  async function answerLost(orderId: number, acted: boolean) {
    fake.script('POST /shipments/announce', [
      ...(acted ? [{ status: 201, afterHandling: true, delayMs: 2500 }] : []),
      ...Array.from({ length: 40 }, () => ({ status: 503 })),
    ]);
    fake.script(
      'GET /shipments',
      Array.from({ length: 40 }, () => ({ status: 503 })),
    );
    const failed = await ship(own.secretLive, asked(orderId));
    fake.clearScripts();
    expect(failed.status, JSON.stringify(failed.body)).toBe(502);
    expect(failed.body.error.code).toBe('carrier_error');
    expect(failed.body.error.message).toContain('send the same request again');
    const { shipments } = await summaryOf(orderId);
    expect(shipments).toEqual([{ id: expect.any(Number), status: 'creating', items: expect.any(Array) }]);
    const id = shipments[0].id as number;
    const reference = `${own.accountId}:live:shipment:${id}`;
    expect(madeFor(reference)).toHaveLength(acted ? 1 : 0);
    return { id, reference };
  }

  it('is adopted by the retry, which finds it by its reference: one label, the reserved shipment', async () => {
    const order = await readyToShip(own.secretLive);
    const { id, reference } = await answerLost(order.id, true);
    const before = announces();
    const retry = await ship(own.secretLive, asked(order.id));
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data).toMatchObject({ id, external_reference: reference, carrier_shipment_id: madeFor(reference)[0]!.id });
    expect(announces()).toBe(before); // looked up, not announced again
    expect(madeFor(reference)).toHaveLength(1);
    expect((await summaryOf(order.id)).shipments).toEqual([{ id, status: 'label_created', items: expect.any(Array) }]);
  });

  it("is adopted from Sendcloud's 409 when the lookup does not show it yet: announcing the reference again makes no second label", async () => {
    const order = await readyToShip(own.secretLive);
    const { id, reference } = await answerLost(order.id, true);
    fake.script('GET /shipments', [{ status: 200, body: { data: [] } }]);
    const before = announces();
    const retry = await ship(own.secretLive, asked(order.id));
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data).toMatchObject({ id, carrier_shipment_id: madeFor(reference)[0]!.id });
    expect(announces()).toBe(before + 1); // answered 409 with the shipment
    expect(madeFor(reference)).toHaveLength(1);
    // Exactly one label, recorded once: the order has the one shipment, whose label downloads.
    const listed = (await call('GET', `/v1/orders/${order.id}/shipments`, { key: own.secretLive })).body.data;
    expect(listed.map((shipment: { id: number }) => shipment.id)).toEqual([id]);
    const label = await call('GET', `/v1/shipments/${id}/label?format=url`, { key: own.secretLive });
    expect(label.status).toBe(200);
  });

  it('is not adopted once its parcel is cancelled: the reservation goes, and the retry ships under a new reference', async () => {
    const order = await readyToShip(own.secretLive);
    const { id, reference } = await answerLost(order.id, true);
    const cancelled = madeFor(reference)[0]!;
    cancelled.cancelled = true; // cancelled in Sendcloud's panel meanwhile
    const retry = await ship(own.secretLive, asked(order.id));
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data.id).not.toBe(id);
    expect(retry.body.data.carrier_shipment_id).not.toBe(cancelled.id);
    expect(madeFor(retry.body.data.external_reference)).toHaveLength(1);
    expect((await summaryOf(order.id)).shipments.map((entry: { id: number }) => entry.id)).toEqual([retry.body.data.id]);
    expect((await call('GET', `/v1/shipments/${id}`, { key: own.secretLive })).status).toBe(404);
  });

  it('is recorded at once by another request for the order (no two-minute wait), which then finds nothing left to ship', async () => {
    const order = await readyToShip(own.secretLive);
    const { id, reference } = await answerLost(order.id, true);
    const other = await ship(own.secretLive, { ...asked(order.id), service: 'dhl:paket' });
    expect(other.status, JSON.stringify(other.body)).toBe(409);
    expect(other.body.error.message).toContain('shipped already');
    const recorded = await call('GET', `/v1/shipments/${id}`, { key: own.secretLive });
    expect(recorded.status).toBe(200);
    expect(recorded.body.data).toMatchObject({ status: 'label_created', carrier_shipment_id: madeFor(reference)[0]!.id });
  });

  it("does not adopt a shipment of another reference that Sendcloud's lookup answers: it makes the label under its own", async () => {
    const order = await readyToShip(own.secretLive);
    const { id, reference } = await answerLost(order.id, false);
    const foreign = {
      id: 'foreign-shipment',
      external_reference_id: `${reference}-not-ours`,
      parcels: [{ id: 999_999, status: { code: 'READY_TO_SEND', message: 'Ready to send' }, tracking_number: 'FOREIGN1' }],
      errors: [],
    };
    fake.script('GET /shipments', [{ status: 200, body: { data: [foreign] } }]);
    const retry = await ship(own.secretLive, asked(order.id));
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data.id).toBe(id);
    expect(retry.body.data.carrier_shipment_id).not.toBe('foreign-shipment');
    expect(retry.body.data.carrier_shipment_id).toBe(madeFor(reference)[0]!.id);
    expect(madeFor(reference)).toHaveLength(1);
  });
});

describe('a shipment whose creator crashed between the carrier and the record', () => {
  beforeAll(async () => {
    const body = { public_key: fake.publicKey, secret_key: fake.secretKey, base_url: fake.url, sender_address: sender };
    expect((await call('PUT', '/v1/carriers/sendcloud', { key: own.secretLive, body })).status).toBe(200);
  });

  /** Leaves what a crash after the reservation leaves: a `creating` shipment and its summary entry, `minutesAgo` old. */
  async function crashedCreation(tenant: Tenant, order: DataOf<'GET', '/v1/orders/{id}'>, body: ShipmentCreate, minutesAgo: number) {
    const id = await nextId(tenant, 'shipment');
    const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const items = order.items.map((line) => ({ line_id: line.id, quantity: line.quantity }));
    const shipment = reservedShipment(tenant, id, order, body, {
      items,
      address: order.shipping_address!,
      partial: false,
      at,
      hash: requestHash(body),
    });
    await transactWrite([
      creatingShipmentPut(tenant, shipment),
      orderShippingWrite(tenant, undefined, { order_id: order.id, shipments: [{ id, status: 'creating', items }], version: 1 }),
    ]);
    return shipment;
  }

  const body = (orderId: number, carrier: 'sandbox' | 'sendcloud'): ShipmentCreate => ({
    order_id: orderId,
    carrier,
    service: 'postnl:standard',
    parcels: [parcel],
    partial: false,
  });

  it('is recorded by the retry of the same request (test mode: the sandbox finds its label by reference)', async () => {
    const key = own.secretTest;
    const order = await readyToShip(key);
    const crashed = await crashedCreation(own.tenant, order, body(order.id, 'sandbox'), 3);
    expect((await call('GET', `/v1/shipments/${crashed.id}`, { key })).status).toBe(404);
    const retry = await ship(key, { ...body(order.id, 'sandbox') });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data).toMatchObject({ id: crashed.id, status: 'label_created', external_reference: crashed.external_reference });
    expect(retry.body.data.tracking_number).toMatch(/^SBX/);
    expect((await call('GET', `/v1/orders/${order.id}/shipments`, { key })).body.data.map((s: { id: number }) => s.id)).toEqual([
      crashed.id,
    ]);
  });

  it('live: records the label Sendcloud has for the reference, or frees the reservation when it has none', async () => {
    const key = own.secretLive;
    const order = await readyToShip(key);
    const crashed = await crashedCreation(live(), order, body(order.id, 'sendcloud'), 3);
    // The label was made before the crash: Sendcloud has it under our reference.
    const made = await fetch(`${fake.url}/shipments/announce`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${fake.publicKey}:${fake.secretKey}`).toString('base64')}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        to_address: { name: 'Anna Schmidt', address_line_1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country_code: 'DE' },
        from_address: {
          name: 'Druckerei Muster GmbH',
          address_line_1: 'Druckweg 2',
          postal_code: '20457',
          city: 'Hamburg',
          country_code: 'DE',
        },
        ship_with: { type: 'shipping_option_code', properties: { shipping_option_code: 'postnl:standard' } },
        external_reference_id: crashed.external_reference,
        parcels: [{ weight: { value: '1.320', unit: 'kg' } }],
      }),
    });
    const announced = ((await made.json()) as { data: { id: number } }).data;
    const announces = fake.requests.filter((received) => received.path === '/shipments/announce').length;
    const retry = await ship(key, body(order.id, 'sendcloud'));
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data).toMatchObject({ id: crashed.id, carrier_shipment_id: announced.id, status: 'label_created' });
    expect(fake.requests.filter((received) => received.path === '/shipments/announce').length).toBe(announces);

    // No label at Sendcloud for a crashed reservation: it is removed, and the new request ships.
    const other = await readyToShip(key);
    const lost = await crashedCreation(live(), other, body(other.id, 'sendcloud'), 3);
    const fresh = await ship(key, { ...body(other.id, 'sendcloud'), service: 'dhl:paket' });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
    expect(fresh.body.data.id).not.toBe(lost.id);
    const summary = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: shipmentKeys.orderShipping(live(), other.id), ConsistentRead: true }),
    );
    expect(summary.Item!.shipments.map((entry: { id: number }) => entry.id)).toEqual([fresh.body.data.id]);
  });

  it('is left alone while younger than two minutes (its creator may still be at work)', async () => {
    const key = own.secretTest;
    const order = await readyToShip(key);
    await crashedCreation(own.tenant, order, body(order.id, 'sandbox'), 0);
    const refused = await ship(key, body(order.id, 'sandbox'));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('shipped already');
  });
});

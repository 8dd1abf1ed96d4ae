/**
 * What a shipment gives the shop to hand on, over HTTP: its delivery note — a PDF of the shop's own
 * (company block, order number, recipient, lines and quantities; customs lines outside the EU
 * customs area), rendered once and served from the documents bucket, read back with pdftotext —
 * and its return label: made by the carrier (the sandbox in test mode), linked to the shipment with
 * its own tracking, `shipment.returned` written once when it arrives back; its label PDF (the
 * sandbox's SPECIMEN) served like the shipment's label, stored once.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { carried, storedEvents } from '#test/support/store';
import { tool, writeScratch } from '#test/support/document-tools';
import { call } from '#test/support/http';
import { enableInvoicing, sellerCompany } from '#test/support/invoices';
import { newCustomer, newProduct } from '#test/support/orders';
import { freshShop, readyOrder, type Shop } from '#test/support/shop';
import { DOCUMENT_TEST_TIMEOUT_MS } from '#test/support/timeouts';

const berlin = {
  name: 'Anna Schmidt',
  company: 'Schmidt Events',
  line1: 'Hauptstraße 1',
  postal_code: '10115',
  city: 'Berlin',
  country: 'DE',
};
const zurich = { name: 'Anna Meier', line1: 'Bahnhofstrasse 1', postal_code: '8001', city: 'Zürich', country: 'CH' };
const parcel = { weight_g: 1320, length_mm: 300, width_mm: 210, height_mm: 50 };

let own: Shop;

beforeAll(async () => {
  own = await freshShop('Documents Shop');
  await enableInvoicing(own.accountId);
});

async function shipped(shippingAddress: Record<string, unknown>, productFields: Record<string, unknown> = {}) {
  const key = own.secretTest;
  const customer = await newCustomer(key);
  const product = await newProduct(key, { name: 'Poster A2 matt', ...productFields });
  const order = await readyOrder(key, {
    customer_id: customer.id,
    items: [
      { product_id: product.id, quantity: 500 },
      { product_id: product.id, quantity: 1, unit_price: 20, description: 'Proof print' },
    ],
    shipping_address: shippingAddress,
  });
  const created = await call('POST', '/v1/shipments', {
    key,
    body: { order_id: order.id, carrier: 'sandbox', service: 'standard', parcels: [parcel] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { order, shipment: created.body.data };
}

const fetchNote = (id: number, key = own.secretTest) =>
  fetch(`${inject('fixtures').api}/v1/shipments/${id}/delivery-note`, {
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/pdf' },
  });

const pdfText = (name: string, bytes: Buffer) => tool('pdftotext', ['-raw', writeScratch(name, bytes), '-']).stdout;

describe('the delivery note', () => {
  it(
    "is a PDF of the shop's own: company, order number, recipient, lines and quantities; rendered once",
    async () => {
      const { order, shipment } = await shipped(berlin);
      const first = await fetchNote(shipment.id);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toContain('application/pdf');
      expect(first.headers.get('content-disposition')).toBe(`inline; filename="delivery-note-${order.order_number}-${shipment.id}.pdf"`);
      expect(first.headers.get('x-document-cached')).toBe('false');
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(`delivery-note-${shipment.id}.pdf`, bytes);
      for (const expected of [
        'Delivery note',
        sellerCompany().legal_name,
        order.order_number,
        'Schmidt Events',
        'Anna Schmidt',
        'Hauptstraße 1',
        '10115 Berlin',
        'Poster A2 matt 500',
        'Proof print 1',
        'TEST',
      ]) {
        expect(text).toContain(expected);
      }
      // White-label: neither the carrier nor this platform is named, in the page or its metadata.
      for (const foreign of ['Sendcloud', 'sandbox', 'Print Shop API', 'SPECIMEN']) expect(text).not.toContain(foreign);
      expect(bytes.toString('latin1')).not.toContain('Print Shop API');
      expect(text).not.toContain('HS code');

      const again = await fetchNote(shipment.id);
      expect(again.headers.get('x-document-cached')).toBe('true');
      expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
      const url = await call('GET', `/v1/shipments/${shipment.id}/delivery-note?format=url`, { key: own.secretTest });
      expect(url.status).toBe(200);
      expect(url.body.data.url).toContain(`shipments/${shipment.id}/delivery-note.pdf`);
      expect((await call('GET', `/v1/shipments/999999/delivery-note?format=url`, { key: own.secretTest })).status).toBe(404);
    },
    DOCUMENT_TEST_TIMEOUT_MS,
  );

  it(
    'carries the customs lines of a shipment leaving the EU customs area',
    async () => {
      const { order, shipment } = await shipped(zurich, { hs_code: '491199', origin_country: 'DE' });
      const response = await fetchNote(shipment.id);
      expect(response.status).toBe(200);
      const text = pdfText(`delivery-note-${shipment.id}.pdf`, Buffer.from(await response.arrayBuffer()));
      for (const expected of [
        'HS code',
        '491199',
        'Customs',
        `Customs invoice: ${order.order_number}`,
        'Reason for export: commercial',
        'Zürich',
      ]) {
        expect(text).toContain(expected);
      }
    },
    DOCUMENT_TEST_TIMEOUT_MS,
  );
});

describe('a return label', () => {
  const simulate = (id: number, body: Record<string, unknown>) =>
    call('POST', `/v1/shipments/${id}/simulate`, { key: own.secretTest, body });
  const returnedEvents = async (id: number) =>
    (await storedEvents(own.tenant)).filter((event) => event.kind === 'shipment.returned' && carried(event, 'shipment')?.id === id);

  it('is made for a delivered shipment with its own tracking; its arrival back writes shipment.returned once', async () => {
    const { shipment } = await shipped(berlin);
    const early = await call('POST', `/v1/shipments/${shipment.id}/return-label`, {
      key: own.secretTest,
      body: { service: 'dpd:return/return' },
    });
    expect(early.status).toBe(409);
    expect((await simulate(shipment.id, { status: 'delivered' })).status).toBe(200);

    const made = await call('POST', `/v1/shipments/${shipment.id}/return-label`, {
      key: own.secretTest,
      body: { service: 'dpd:return/return' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({
      id: shipment.id,
      status: 'delivered',
      return_shipment: {
        service: 'dpd:return/return',
        status: 'label_created',
        arrived_at: null,
        tracking_number: expect.stringMatching(/^SBX\d{12}$/),
      },
    });
    expect(made.body.data.return_shipment!.tracking_number).not.toBe(shipment.tracking_number);
    const twice = await call('POST', `/v1/shipments/${shipment.id}/return-label`, {
      key: own.secretTest,
      body: { service: 'dpd:return/return' },
    });
    expect(twice.status).toBe(409);

    const base = Date.now();
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    expect(
      (await simulate(shipment.id, { status: 'in_transit', return: true, occurred_at: at(1) })).body.data.return_shipment,
    ).toMatchObject({
      status: 'in_transit',
    });
    expect(await returnedEvents(shipment.id)).toHaveLength(0);
    const back = await simulate(shipment.id, { status: 'delivered', return: true, occurred_at: at(2) });
    expect(back.body.data).toMatchObject({ status: 'delivered', return_shipment: { status: 'delivered', arrived_at: at(2) } });
    await simulate(shipment.id, { status: 'delivered', return: true, occurred_at: at(3) });
    const events = await returnedEvents(shipment.id);
    expect(events).toHaveLength(1);
    expect(carried(events[0]!, 'shipment')).toMatchObject({ id: shipment.id, return_shipment: { status: 'delivered' } });
  });

  it(
    "is served as the sandbox's SPECIMEN PDF, stored once; 404 before the return is made",
    async () => {
      const { shipment } = await shipped(berlin);
      const download = () =>
        fetch(`${inject('fixtures').api}/v1/shipments/${shipment.id}/return-label`, {
          headers: { Authorization: `Bearer ${own.secretTest}`, Accept: 'application/pdf' },
        });
      const none = await download();
      expect(none.status).toBe(404);
      expect(((await none.json()) as { error: { message: string } }).error.message).toContain('no return label yet');

      expect((await simulate(shipment.id, { status: 'delivered' })).status).toBe(200);
      const made = await call('POST', `/v1/shipments/${shipment.id}/return-label`, {
        key: own.secretTest,
        body: { service: 'dpd:return/return' },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const first = await download();
      expect(first.status).toBe(200);
      expect(first.headers.get('content-disposition')).toBe(`inline; filename="shipment-${shipment.id}-return-label.pdf"`);
      expect(first.headers.get('x-document-cached')).toBe('false');
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(`return-label-${shipment.id}.pdf`, bytes);
      expect(text).toContain('SPECIMEN');
      expect(text).toContain(made.body.data.return_shipment!.tracking_number!);

      const second = await download();
      expect(second.status).toBe(200);
      expect(second.headers.get('x-document-cached')).toBe('true');
      const redirected = await fetch(`${inject('fixtures').api}/v1/shipments/${shipment.id}/return-label`, {
        headers: { Authorization: `Bearer ${own.secretTest}` },
        redirect: 'manual',
      });
      expect(redirected.status).toBe(302);
    },
    DOCUMENT_TEST_TIMEOUT_MS,
  );

  it('is refused for a shipment without one when simulating its return, and for an unknown shipment', async () => {
    const { shipment } = await shipped(berlin);
    expect((await simulate(shipment.id, { status: 'delivered', return: true })).status).toBe(409);
    const unknown = await call('POST', '/v1/shipments/999999/return-label', {
      key: own.secretTest,
      body: { service: 'dpd:return/return' },
    });
    expect(unknown.status).toBe(404);
  });
});

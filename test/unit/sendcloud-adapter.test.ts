/**
 * The Sendcloud v3 adapter against a local server that answers as Sendcloud's documentation says
 * (test/support/sendcloud-fake.ts): labels, the 201-with-ANNOUNCEMENT_FAILED trap, validation and
 * credential refusals, cancellation answers, retries after 429 and 503, a timeout, tracking; and a
 * label the carrier may have made: the 409 for a reference used before adopted, lookups by
 * reference adopting only our reference's live shipment, an outcome it cannot know reported as such.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CarrierError, ConflictError } from '#shared/errors';
import { toErrorResult } from '#shared/http/error-mapping';
import { CarrierOutcomeUnknown, CarrierReferenceSpent, type LabelRequest } from '#shared/shipments/carriers/carrier';
import { SendcloudCarrier, sendcloudErrorDetails } from '#shared/shipments/carriers/sendcloud';
import { contractErrors } from '#test/support/sendcloud-contract';
import { expectNoContractViolations, FAKE_LABEL_PDF, startFakeSendcloud, type FakeSendcloud } from '#test/support/sendcloud-fake';

let fake: FakeSendcloud;
let reference = 0;

beforeAll(async () => {
  fake = await startFakeSendcloud();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.clearScripts();
});
// Every request the adapter sent must be one Sendcloud's v3 contract accepts.
afterEach(() => expectNoContractViolations(fake));

const adapter = (options: Partial<ConstructorParameters<typeof SendcloudCarrier>[0]> = {}) =>
  new SendcloudCarrier({
    baseUrl: fake.url,
    publicKey: fake.publicKey,
    secretKey: fake.secretKey,
    backoffMs: 10,
    deadlineMs: 3000,
    requestTimeoutMs: 1000,
    ...options,
  });

const request = (overrides: Partial<LabelRequest> = {}): LabelRequest => ({
  reference: `acct_test:live:shipment:${++reference}`,
  service: 'postnl:standard',
  order_number: 'ORD-2026-000042',
  parcels: [{ weight_g: 1320, length_mm: 300, width_mm: 210, height_mm: 50 }],
  to: {
    name: 'Anna Schmidt',
    company: null,
    line1: 'Hauptstraße 1',
    line2: null,
    postal_code: '10115',
    city: 'Berlin',
    region: null,
    country: 'DE',
    email: 'anna@example.com',
  },
  from: {
    name: 'Druckerei Schmidt GmbH',
    company: null,
    line1: 'Druckweg 2',
    line2: null,
    postal_code: '20457',
    city: 'Hamburg',
    region: null,
    country: 'DE',
  },
  ...overrides,
});

const announces = () => fake.requests.filter((received) => received.method === 'POST' && received.path === '/shipments/announce');

async function failure(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('creating a label', () => {
  it('announces with Basic auth and the documented body, and answers ids, tracking and the label PDF', async () => {
    const label = await adapter().createLabel(request());
    const [sent] = announces();
    expect(sent!.headers.authorization).toBe(`Basic ${Buffer.from(`${fake.publicKey}:${fake.secretKey}`).toString('base64')}`);
    expect(sent!.body).toMatchObject({
      label_details: { mime_type: 'application/pdf', dpi: 72 },
      to_address: { name: 'Anna Schmidt', address_line_1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country_code: 'DE' },
      from_address: { name: 'Druckerei Schmidt GmbH', city: 'Hamburg' },
      ship_with: { type: 'shipping_option_code', properties: { shipping_option_code: 'postnl:standard' } },
      order_number: 'ORD-2026-000042',
      external_reference_id: `acct_test:live:shipment:${reference}`,
      parcels: [{ dimensions: { length: '30.00', width: '21.00', height: '5.00', unit: 'cm' }, weight: { value: '1.320', unit: 'kg' } }],
    });
    expect(label.parcel_ids).toHaveLength(1);
    expect(label.tracking_number).toMatch(/^3SYZXG/);
    expect(label.carrier_shipment_id).toBe([...fake.shipments.values()].at(-1)!.id);
    const pdf = await adapter().getLabel(label, 0);
    expect(Buffer.from(pdf).equals(FAKE_LABEL_PDF)).toBe(true);
    expect(fake.requests.at(-1)!.headers.accept).toBe('application/pdf');
  });

  it('treats a 201 whose parcel says ANNOUNCEMENT_FAILED as the failure it is (502 with Sendcloud’s message)', async () => {
    const error = await failure(adapter().createLabel(request({ service: 'fake:announcement_failed' })));
    expect(error).toBeInstanceOf(CarrierError);
    expect(error).toMatchObject({ code: 'carrier_error' });
    expect(error.message).toContain('Service error: the carrier is unreachable');
    expect(toErrorResult(error, 'req').statusCode).toBe(502);
    expect(announces()).toHaveLength(1);
  });

  it("passes a validation error on as 422 with Sendcloud's message and pointers", async () => {
    // Sent on purpose: the API's own validation keeps a blank city from getting this far.
    const error = await failure(adapter().createLabel(request({ to: { ...request().to, city: '' } })));
    expect(error).toMatchObject({
      code: 'validation_failed',
      details: [{ field: '/to_address/city', message: 'This field may not be blank.' }],
    });
    expect(error.message).toContain('This field may not be blank.');
    expect(toErrorResult(error, 'req').statusCode).toBe(422);
    expect(fake.takeViolations().map((violation) => violation.errors)).toEqual([
      [{ status: '400', code: 'invalid', detail: 'This field may not be blank.', source: { pointer: '/to_address/city' } }],
    ]);
  });

  it('names a sender address configured at Sendcloud by its id when it has no sender address of its own', async () => {
    await adapter().createLabel(request({ from: null, sender_address_id: 192 }));
    expect(announces()[0]!.body).toMatchObject({ from_address: { sender_address_id: 192 } });
  });

  it('refuses (422) without calling Sendcloud a shipment with no sender, or to a destination outside the EU customs area without its customs declaration', async () => {
    const senderless = await failure(adapter().createLabel(request({ from: null, sender_address_id: null })));
    expect(senderless).toMatchObject({ code: 'validation_failed', details: [{ field: 'sender_address' }] });
    const abroad = await failure(adapter().createLabel(request({ to: { ...request().to, country: 'CH', postal_code: '8001' } })));
    expect(abroad).toMatchObject({ code: 'validation_failed', details: [{ field: 'address_id' }] });
    expect(abroad.message).toContain('customs');
    expect(toErrorResult(abroad, 'req').statusCode).toBe(422);
    expect(fake.requests).toEqual([]);
  });

  it('answers 422 when Sendcloud refuses the credentials (401), without retrying', async () => {
    const error = await failure(adapter({ secretKey: 'wrong' }).createLabel(request()));
    expect(error).toMatchObject({ code: 'validation_failed' });
    expect(error.message).toContain('Invalid username/password.');
    expect(announces()).toHaveLength(1);
  });

  it('retries a 429 (honouring Retry-After) and then succeeds', async () => {
    fake.script('POST /shipments/announce', [{ status: 429, headers: { 'Retry-After': '0' } }]);
    const label = await adapter().createLabel(request());
    expect(label.tracking_number).toBeTruthy();
    expect(announces()).toHaveLength(2);
  });

  it('after a 503 looks the label up by its reference before announcing again, then succeeds', async () => {
    fake.script('POST /shipments/announce', [{ status: 503 }]);
    const label = await adapter().createLabel(request());
    expect(label.tracking_number).toBeTruthy();
    const paths = fake.requests.map((received) => `${received.method} ${received.path.split('?')[0]}`);
    expect(paths).toEqual(['POST /shipments/announce', 'GET /shipments', 'POST /shipments/announce']);
  });

  it('finds a label made before a 5xx answer by its reference, and makes no second one', async () => {
    const before = fake.shipments.size;
    fake.script('POST /shipments/announce', [{ status: 502, afterHandling: true }]);
    const asked = request();
    const label = await adapter().createLabel(asked);
    expect(fake.shipments.size).toBe(before + 1);
    expect(announces()).toHaveLength(1);
    expect([...fake.shipments.values()].find((shipment) => shipment.external_reference_id === asked.reference)!.id).toBe(
      label.carrier_shipment_id,
    );
  });

  it('gives up on a carrier that does not answer in time, within its deadline (502)', async () => {
    fake.script(
      'POST /shipments/announce',
      Array.from({ length: 10 }, () => ({ status: 201, delayMs: 700 })),
    );
    const started = Date.now();
    const error = await failure(adapter({ requestTimeoutMs: 200, deadlineMs: 900 }).createLabel(request()));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({ code: 'carrier_error' });
    expect(error.message).toContain('did not answer in time');
  });

  it('survives a timeout followed by an answer', async () => {
    fake.script('POST /shipments/announce', [{ status: 201, delayMs: 400 }]);
    const label = await adapter({ requestTimeoutMs: 200 }).createLabel(request());
    expect(label.tracking_number).toBeTruthy();
  });
});

describe('a label Sendcloud may have made', () => {
  const madeFor = (reference: string) => [...fake.shipments.values()].filter((shipment) => shipment.external_reference_id === reference);
  const paths = () => fake.requests.map((received) => `${received.method} ${received.path.split('?')[0]}`);

  it('adopts the shipment Sendcloud answers a 409 with when the reference was used before: no second label', async () => {
    const asked = request();
    const first = await adapter().createLabel(asked);
    const again = await adapter().createLabel(asked);
    expect(again).toEqual(first);
    expect(madeFor(asked.reference)).toHaveLength(1);
    expect(paths()).toEqual(['POST /shipments/announce', 'POST /shipments/announce']);
  });

  it('after a timeout once the label was made and a lookup that does not show it yet, adopts it from the next announce’s 409', async () => {
    fake.script('POST /shipments/announce', [{ status: 201, afterHandling: true, delayMs: 500 }]);
    fake.script('GET /shipments', [{ status: 200, body: { data: [] } }]);
    const asked = request();
    const label = await adapter({ requestTimeoutMs: 200 }).createLabel(asked);
    expect(madeFor(asked.reference)).toHaveLength(1);
    expect(label.carrier_shipment_id).toBe(madeFor(asked.reference)[0]!.id);
    expect(paths()).toEqual(['POST /shipments/announce', 'GET /shipments', 'POST /shipments/announce']);
  });

  it('looks a label up by its reference, adopting only a shipment of that reference whose parcels are not cancelled', async () => {
    const carrier = adapter();
    const asked = request();
    const made = await carrier.createLabel(asked);
    expect(await carrier.findByReference(asked.reference)).toEqual(made);
    // A list answering another reference's shipment, or one without a reference: not ours.
    const live = (id: string, reference?: string) => ({
      id,
      ...(reference === undefined ? {} : { external_reference_id: reference }),
      parcels: [{ id: 1, status: { code: 'READY_TO_SEND' }, tracking_number: 'T1' }],
      errors: [],
    });
    fake.script('GET /shipments', [{ status: 200, body: { data: [live('foreign', `${asked.reference}0`), live('unnamed')] } }]);
    expect(await carrier.findByReference(asked.reference)).toBeUndefined();
    // Cancelled (or being cancelled): not a label to record.
    expect(await carrier.cancel(made)).toBe('cancelled');
    expect(await carrier.findByReference(asked.reference)).toBeUndefined();
    fake.script('GET /shipments', [
      {
        status: 200,
        body: { data: [{ ...live('pending', asked.reference), parcels: [{ id: 2, status: { code: 'CANCELLATION_REQUESTED' } }] }] },
      },
    ]);
    expect(await carrier.findByReference(asked.reference)).toBeUndefined();
  });

  it('does not adopt a cancelled shipment a 409 names: the reference is spent (409, nothing made)', async () => {
    const carrier = adapter();
    const asked = request();
    await carrier.cancel(await carrier.createLabel(asked));
    const error = await failure(carrier.createLabel(asked));
    expect(error).toBeInstanceOf(CarrierReferenceSpent);
    expect(toErrorResult(error, 'req').statusCode).toBe(409);
    expect(madeFor(asked.reference)).toHaveLength(1);
  });

  it("adopts from a 409 only our reference's live shipment: another's is looked past, a cancelled one of ours is spent", async () => {
    const carrier = adapter();
    const asked = request();
    const made = await carrier.createLabel(asked);
    const foreign = {
      id: 'other',
      external_reference_id: 'someone-else',
      parcels: [{ id: 9, status: { code: 'READY_TO_SEND' } }],
      errors: [],
    };
    // The 409 names another reference's shipment: the lookup by ours finds the label ours made.
    fake.script('POST /shipments/announce', [{ status: 409, body: { data: foreign } }]);
    expect(await carrier.createLabel(asked)).toEqual(made);
    // The 409 names ours, cancelled (as a callback writes the status: a numeric id): spent, never adopted.
    const cancelled = { ...foreign, id: made.carrier_shipment_id, external_reference_id: asked.reference };
    fake.script('POST /shipments/announce', [
      { status: 409, body: { data: { ...cancelled, parcels: [{ id: 9, status: { id: 2000, message: 'Cancelled' } }] } } },
    ]);
    expect(await failure(carrier.createLabel(asked))).toBeInstanceOf(CarrierReferenceSpent);
    expect(madeFor(asked.reference)).toHaveLength(1);
  });

  it('reports a timeout after which it could not find out (lookups and announces failing until the deadline) as an outcome it cannot know', async () => {
    fake.script('POST /shipments/announce', [
      { status: 201, afterHandling: true, delayMs: 500 },
      ...Array.from({ length: 30 }, () => ({ status: 503 })),
    ]);
    fake.script(
      'GET /shipments',
      Array.from({ length: 30 }, () => ({ status: 503 })),
    );
    const asked = request();
    const started = Date.now();
    const error = await failure(adapter({ requestTimeoutMs: 200, deadlineMs: 1200 }).createLabel(asked));
    expect(Date.now() - started).toBeLessThan(2500); // the lookups keep to the announce's deadline
    expect(error).toBeInstanceOf(CarrierOutcomeUnknown);
    expect(toErrorResult(error, 'req').statusCode).toBe(502);
    expect(madeFor(asked.reference)).toHaveLength(1); // made, but the caller could not learn it
  });

  it('reports 429s until the deadline as a plain failure: nothing was made', async () => {
    fake.script(
      'POST /shipments/announce',
      Array.from({ length: 30 }, () => ({ status: 429, headers: { 'Retry-After': '0' } })),
    );
    const error = await failure(adapter({ deadlineMs: 600 }).createLabel(request()));
    expect(error).toBeInstanceOf(CarrierError);
    expect(error).not.toBeInstanceOf(CarrierOutcomeUnknown);
  });
});

describe('cancelling', () => {
  it('answers cancelled (200), requested (202), and passes 409 and 404 on as conflicts with the reason', async () => {
    const carrier = adapter();
    const label = await carrier.createLabel(request());
    expect(await carrier.cancel(label)).toBe('cancelled');
    const again = await failure(carrier.cancel(label));
    expect(again).toBeInstanceOf(ConflictError);
    expect(again.message).toContain('This shipment is already being cancelled.');
    expect(toErrorResult(again, 'req').statusCode).toBe(409);
    const unknown = await failure(carrier.cancel({ ...label, carrier_shipment_id: 'no-such-shipment' }));
    expect(unknown).toBeInstanceOf(ConflictError);
    expect(unknown.message).toContain('Not found');
    const queued = await carrier.createLabel(request({ service: 'fake:queued_cancel' }));
    expect(await carrier.cancel(queued)).toBe('requested');
  });
});

describe('tracking', () => {
  it('maps the tracking events by the status table, oldest first', async () => {
    const carrier = adapter();
    const label = await carrier.createLabel(request());
    fake.setTracking(label.tracking_number!, [
      {
        event_at: '2026-05-02T09:00:00Z',
        event_type: 'carrier',
        status_code: 'DELIVERED',
        status_description: 'Delivered',
        status_type: 'delivered',
      },
      {
        event_at: '2026-05-01T09:00:00Z',
        event_type: 'carrier',
        status_code: 'IN_TRANSIT',
        status_description: 'Sorted',
        status_type: 'in_transit',
      },
    ]);
    const updates = await carrier.track(label);
    expect(updates.map((update) => [update.status, update.description])).toEqual([
      ['in_transit', 'Sorted'],
      ['delivered', 'Delivered'],
    ]);
  });

  it('follows every parcel of a shipment of several by its own tracking number, each update naming its parcel', async () => {
    const carrier = adapter();
    const parcel = request().parcels[0]!;
    const label = await carrier.createLabel(request({ parcels: [parcel, parcel] }));
    expect(label.parcel_tracking_numbers).toHaveLength(2);
    const [first, second] = label.parcel_tracking_numbers as string[];
    fake.setTracking(first!, [
      { event_at: '2026-05-02T09:00:00Z', status_code: 'delivered', status_type: 'success', sub_status_code: 'none' },
    ]);
    fake.setTracking(second!, [
      { event_at: '2026-05-01T09:00:00Z', status_code: 'in_transit', status_type: 'success', sub_status_code: 'none' },
    ]);
    const updates = await carrier.track(label);
    expect(updates.map((update) => [update.parcel_id, update.status])).toEqual([
      [label.parcel_ids[1], 'in_transit'],
      [label.parcel_ids[0], 'delivered'],
    ]);
    expect(fake.requests.filter((received) => received.path.startsWith('/parcels/tracking/')).map((received) => received.path)).toEqual([
      `/parcels/tracking/${first}`,
      `/parcels/tracking/${second}`,
    ]);
  });

  it('reads the tracking endpoint’s own error shape ({"detail"}) and treats 404 as nothing known', async () => {
    expect(await adapter().track({ carrier_shipment_id: 'x', parcel_ids: ['1'], tracking_number: 'NOPE', tracking_url: null })).toEqual([]);
    expect(sendcloudErrorDetails({ detail: 'Parcel does not exist' }).message).toBe('Parcel does not exist');
    expect(sendcloudErrorDetails({ detail: [{ loc: ['path', 'tracking_number'], msg: 'field required', type: 'missing' }] })).toEqual({
      message: 'field required',
      details: [{ field: 'path.tracking_number', message: 'field required' }],
    });
  });
});

describe('the v3 contract the fake holds requests to', () => {
  const domestic = {
    to_address: { name: 'Anna Schmidt', address_line_1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country_code: 'DE' },
    from_address: { name: 'Druckerei', address_line_1: 'Druckweg 2', postal_code: '20457', city: 'Hamburg', country_code: 'DE' },
    ship_with: { type: 'shipping_option_code', properties: { shipping_option_code: 'postnl:standard' } },
    parcels: [{ weight: { value: '1.320', unit: 'kg' } }],
  };
  const pointers = (operation: Parameters<typeof contractErrors>[0], body: unknown) =>
    contractErrors(operation, body).map((error) => `${error.code} ${error.source?.pointer}`);

  it('takes a domestic announce with a sender address or a sender address id', () => {
    expect(pointers('announce', domestic)).toEqual([]);
    expect(pointers('announce', { ...domestic, from_address: { sender_address_id: 192 } })).toEqual([]);
  });

  it('refuses an announce without a sender, a shipping option or parcels, with units outside the enums, or with unknown fields', () => {
    const { from_address: _dropped, ...senderless } = domestic;
    expect(pointers('announce', senderless)).toEqual(['required /from_address']);
    expect(pointers('announce', { ...domestic, ship_with: { type: 'shipping_option_code', properties: {} } })).toEqual([
      'required /ship_with/properties/shipping_option_code',
    ]);
    expect(pointers('announce', { ...domestic, parcels: [] })).toEqual(['invalid /parcels']);
    expect(pointers('announce', { ...domestic, parcels: Array.from({ length: 16 }, () => domestic.parcels[0]) })).toEqual([
      'invalid /parcels',
    ]);
    expect(
      pointers('announce', {
        ...domestic,
        parcels: [{ weight: { value: '1.3', unit: 'kilo' }, dimensions: { length: '1', width: '1', height: '1', unit: 'dm' } }],
      }),
    ).toEqual(['invalid_choice /parcels/0/dimensions/unit', 'invalid_choice /parcels/0/weight/unit']);
    expect(pointers('announce', { ...domestic, to_address: { ...domestic.to_address, street: 'x' } })).toEqual([
      'unknown_field /to_address/street',
    ]);
  });

  it('needs customs information and parcel items with their origin for a destination outside the EU customs area', () => {
    const abroad = { ...domestic, to_address: { ...domestic.to_address, country_code: 'US', state_province_code: 'US-NY' } };
    expect(pointers('announce', abroad)).toEqual(['required /customs_information', 'required /parcels/0/parcel_items']);
    const item = { description: 'Flyer A5', quantity: 500, weight: { value: 1.2, unit: 'kg' }, price: { value: '80.00', currency: 'EUR' } };
    expect(
      pointers('announce', {
        ...abroad,
        customs_information: { invoice_number: 'INV-1', export_reason: 'commercial_goods' },
        parcels: [{ ...domestic.parcels[0], parcel_items: [{ ...item, hs_code: '491110', origin_country: 'DE' }] }],
      }),
    ).toEqual([]);
    expect(pointers('announce', { ...abroad, to_address: { ...abroad.to_address, country_code: 'AT' } })).toEqual([]);
  });

  it('holds cancel to no body and documents to their id, type and format', () => {
    expect(pointers('cancel', { id: 'abc', body: null })).toEqual([]);
    expect(pointers('cancel', { id: 'abc', body: { reason: 'x' } })).toHaveLength(1);
    expect(pointers('document', { id: 383707309, type: 'label', accept: 'application/pdf', body: null })).toEqual([]);
    expect(pointers('document', { id: 383707309, type: 'invoice', accept: 'application/json', body: null })).toEqual([
      'invalid_choice /type',
      'invalid_choice /accept',
    ]);
  });
});

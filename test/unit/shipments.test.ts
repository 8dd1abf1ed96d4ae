import { describe, expect, it } from 'vitest';
import { sandboxLabel, sandboxTrackingNumber, simulatedUpdate } from '#shared/shipments/carriers/sandbox';
import { parseSendcloudCallback } from '#shared/shipments/carriers/sendcloud-callback';
import { sendcloudSignature, verifySendcloudSignature } from '#shared/shipments/carriers/sendcloud-signature';
import { SENDCLOUD_STATUS_TABLE, statusOfCode, statusOfId, statusOfTrackingEvent } from '#shared/shipments/carriers/sendcloud-status';
import { milestonesOf, remainingLines, type ShipmentSummary } from '#shared/shipments/milestones';
import {
  SHIPMENT_STATUSES,
  SHIPMENT_TRANSITIONS,
  applyUpdate,
  canMove,
  type CarrierUpdate,
  type ShipmentStatus,
  type TrackingState,
} from '#shared/shipments/status';
import { tenantOfToken } from '#shared/shipments/settings';
import { judgeShipment } from '#shared/shipments/carriers/sendcloud';
import { STALE_CREATION_MS, settleable } from '#shared/shipments/creation';

describe("Sendcloud's webhook signature", () => {
  it("matches the documentation's test vector", () => {
    expect(sendcloudSignature('secretkey', '{"key": "value"}')).toBe('1eed4b3d41f4653ac64fd56f1bf1cbfd349e4482cbc11dff7134bd93e5da4b0a');
    expect(
      verifySendcloudSignature(
        'secretkey',
        Buffer.from('{"key": "value"}'),
        '1eed4b3d41f4653ac64fd56f1bf1cbfd349e4482cbc11dff7134bd93e5da4b0a',
      ),
    ).toBe(true);
  });

  it('refuses a missing, malformed or wrong signature, another key, and a body changed by one byte', () => {
    const good = sendcloudSignature('secretkey', '{"key": "value"}');
    for (const signature of [undefined, '', 'abc', `${good}00`, good.replace(/.$/, (c) => (c === '0' ? '1' : '0')), 'g'.repeat(64)]) {
      expect(verifySendcloudSignature('secretkey', '{"key": "value"}', signature), String(signature)).toBe(false);
    }
    expect(verifySendcloudSignature('otherkey', '{"key": "value"}', good)).toBe(false);
    expect(verifySendcloudSignature('secretkey', '{"key":"value"}', good)).toBe(false);
  });
});

describe('the Sendcloud status table', () => {
  it('is one table: a row per status of ours (or "keep the previous one"), each id and code in one row only', () => {
    const statuses = SENDCLOUD_STATUS_TABLE.map((row) => row.status);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses.filter((status) => status !== null).sort()).toEqual([...SHIPMENT_STATUSES].sort());
    const ids = SENDCLOUD_STATUS_TABLE.flatMap((row) => Object.keys(row.ids));
    const codes = SENDCLOUD_STATUS_TABLE.flatMap((row) => row.codes);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('maps a tracking event by its status code and deciding sub status, never by its status_type (a severity)', () => {
    expect(statusOfTrackingEvent('accepted', 'none')).toBe('in_transit');
    expect(statusOfTrackingEvent('in_transit', 'returned_sender')).toBe('returned');
    expect(statusOfTrackingEvent('exception', 'cancelled_upstream')).toBe('cancelled');
    expect(statusOfTrackingEvent('in_transit', 'delivery_delay')).toBe('in_transit');
    expect(statusOfTrackingEvent('success', undefined)).toBeNull();
    expect(statusOfTrackingEvent(undefined, undefined)).toBeNull();
  });

  it.each([
    [1000, 'label_created'],
    [1, 'label_created'],
    [22, 'in_transit'],
    [62990, 'in_transit'],
    [92, 'out_for_delivery'],
    [12, 'out_for_delivery'],
    [11, 'delivered'],
    [93, 'delivered'],
    [8, 'exception'],
    [1002, 'exception'],
    [62992, 'returned'],
    [2000, 'cancelled'],
    [1998, 'cancelled'],
    [1001, null],
    [1999, null],
    [424242, null],
  ] as const)('status id %s → %s', (id, status) => {
    expect(statusOfId(id)).toBe(status);
  });

  it('maps v3 codes and phases in any case', () => {
    expect(statusOfCode('READY_TO_SEND')).toBe('label_created');
    expect(statusOfCode('ANNOUNCEMENT_FAILED')).toBe('exception');
    expect(statusOfCode('in_delivery')).toBe('out_for_delivery');
    expect(statusOfCode('returned_sender')).toBe('returned');
    expect(statusOfCode('something new')).toBeNull();
    expect(statusOfCode(undefined)).toBeNull();
  });
});

describe("Sendcloud's parcel_status_changed callback", () => {
  const body = (statusId: number, timestamp: number) => ({
    action: 'parcel_status_changed',
    timestamp,
    carrier_status_change_timestamp: null,
    parcel: { id: 383707309, tracking_number: '3SYZXG8498635', status: { id: statusId, message: 'Delivered' } },
  });

  it('becomes an update keyed by parcel, status and time, ordered by the payload timestamp', () => {
    expect(parseSendcloudCallback(body(11, 1525271885993))).toEqual({
      parcel_id: '383707309',
      tracking_number: '3SYZXG8498635',
      update: {
        key: 'sendcloud:383707309:11:2018-05-02T14:38:05.993Z',
        parcel_id: '383707309',
        status: 'delivered',
        carrier_status: '11',
        description: 'Delivered',
        location: null,
        occurred_at: '2018-05-02T14:38:05.993Z',
      },
    });
  });

  it('ignores other actions and bodies without a parcel or a time', () => {
    expect(parseSendcloudCallback({ action: 'integration_updated', timestamp: 1 })).toBeUndefined();
    expect(parseSendcloudCallback({ action: 'parcel_status_changed', timestamp: 1525271885993 })).toBeUndefined();
    expect(parseSendcloudCallback({ ...body(11, 0) })).toBeUndefined();
    expect(parseSendcloudCallback(null)).toBeUndefined();
  });
});

describe('the shipment status machine', () => {
  it('has an entry for every status, and final statuses go nowhere', () => {
    expect(Object.keys(SHIPMENT_TRANSITIONS).sort()).toEqual([...SHIPMENT_STATUSES].sort());
    for (const status of ['delivered', 'returned', 'cancelled'] as const) {
      for (const to of SHIPMENT_STATUSES) expect(canMove(status, to), `${status} → ${to}`).toBe(false);
    }
    expect(canMove('label_created', 'cancelled')).toBe(true);
    expect(canMove('in_transit', 'cancelled')).toBe(false);
    expect(canMove('exception', 'in_transit')).toBe(true);
  });

  const start: TrackingState = { status: 'label_created', status_at: '2026-05-01T10:00:00.000Z', events: [], seen: [] };
  const update = (status: ShipmentStatus | null, at: string, key = `${status}:${at}`): CarrierUpdate => ({
    key,
    status,
    carrier_status: status,
    description: String(status),
    location: null,
    occurred_at: at,
  });

  it('moves with a newer report, and the same report twice changes nothing', () => {
    const first = applyUpdate(start, update('in_transit', '2026-05-01T11:00:00.000Z'));
    expect(first.outcome).toBe('applied');
    expect(first.state.status).toBe('in_transit');
    const again = applyUpdate(first.state, update('in_transit', '2026-05-01T11:00:00.000Z'));
    expect(again.outcome).toBe('duplicate');
    expect(again.state).toBe(first.state);
  });

  it('never moves back: in_transit arriving after delivered is kept in the history only', () => {
    const delivered = applyUpdate(start, update('delivered', '2026-05-02T09:00:00.000Z')).state;
    const late = applyUpdate(delivered, update('in_transit', '2026-05-01T11:00:00.000Z'));
    expect(late.outcome).toBe('stale');
    expect(late.state.status).toBe('delivered');
    expect(late.state.status_at).toBe('2026-05-02T09:00:00.000Z');
    expect(late.state.events.map((event) => event.status)).toEqual(['in_transit', 'delivered']);
    // Even a newer in_transit does not move a delivered shipment.
    expect(applyUpdate(delivered, update('in_transit', '2026-05-03T09:00:00.000Z')).state.status).toBe('delivered');
  });

  it('records a report of no status of ours, or of the same status, without moving', () => {
    const moving = applyUpdate(start, update('in_transit', '2026-05-01T11:00:00.000Z')).state;
    const sorted = applyUpdate(moving, update('in_transit', '2026-05-01T12:00:00.000Z', 'sorted'));
    expect(sorted.outcome).toBe('recorded');
    expect(sorted.state.events).toHaveLength(2);
    const unknown = applyUpdate(sorted.state, update(null, '2026-05-01T13:00:00.000Z'));
    expect(unknown.outcome).toBe('recorded');
    expect(unknown.state.status).toBe('in_transit');
    expect(unknown.state.events.at(-1)!.status).toBe('in_transit');
  });
});

describe("an order's shipping milestones", () => {
  const lines = [
    { id: 1, quantity: 500 },
    { id: 2, quantity: 1 },
  ];
  const all = [
    { line_id: 1, quantity: 500 },
    { line_id: 2, quantity: 1 },
  ];
  const shipment = (id: number, status: ShipmentSummary['status'], items = all): ShipmentSummary => ({ id, status, items });

  it('ships a ready order when its first shipment leaves, and completes it when all is delivered', () => {
    expect(milestonesOf('ready', lines, [shipment(1, 'label_created')])).toEqual({ ship: false, complete: false });
    expect(milestonesOf('ready', lines, [shipment(1, 'in_transit')])).toEqual({ ship: true, complete: false });
    expect(milestonesOf('shipped', lines, [shipment(1, 'out_for_delivery')])).toEqual({ ship: false, complete: false });
    expect(milestonesOf('shipped', lines, [shipment(1, 'delivered')])).toEqual({ ship: false, complete: true });
    // Delivered without an in-transit report first: both at once.
    expect(milestonesOf('ready', lines, [shipment(1, 'delivered')])).toEqual({ ship: true, complete: true });
    // Already completed (or moved by hand): nothing more.
    expect(milestonesOf('completed', lines, [shipment(1, 'delivered')])).toEqual({ ship: false, complete: false });
  });

  it('does not complete while something is unshipped or a shipment is not delivered; cancelled ones do not count', () => {
    const half = [{ line_id: 1, quantity: 250 }];
    expect(milestonesOf('shipped', lines, [shipment(1, 'delivered', half)]).complete).toBe(false);
    expect(milestonesOf('shipped', lines, [shipment(1, 'delivered', half), shipment(2, 'in_transit')]).complete).toBe(false);
    expect(milestonesOf('shipped', lines, [shipment(1, 'cancelled'), shipment(2, 'delivered')]).complete).toBe(true);
    expect(milestonesOf('shipped', lines, [shipment(1, 'returned')]).complete).toBe(false);
  });

  it('leaves an order in production alone (a partial shipment), and counts what is left', () => {
    expect(milestonesOf('in_production', lines, [shipment(1, 'delivered', [{ line_id: 1, quantity: 100 }])])).toEqual({
      ship: false,
      complete: false,
    });
    expect(remainingLines(lines, [shipment(1, 'in_transit', [{ line_id: 1, quantity: 100 }]), shipment(2, 'cancelled')])).toEqual(
      all.map((line) => (line.line_id === 1 ? { line_id: 1, quantity: 400 } : line)),
    );
  });
});

describe('the sandbox carrier', () => {
  const request = { reference: 'acct_1:test:shipment:7', parcels: [{ weight_g: 1, length_mm: 1, width_mm: 1, height_mm: 1 }] };

  it('gives the same tracking number and ids for the same reference, others for another', () => {
    expect(sandboxLabel(request)).toEqual(sandboxLabel(request));
    expect(sandboxTrackingNumber(request.reference)).toMatch(/^SBX\d{12}$/);
    expect(sandboxTrackingNumber('acct_1:test:shipment:8')).not.toBe(sandboxTrackingNumber(request.reference));
  });

  it('simulates a report keyed by parcel, status and time', () => {
    const at = new Date('2026-05-01T10:00:00Z');
    expect(simulatedUpdate('p1', 'delivered', at)).toMatchObject({
      key: 'sandbox:p1:delivered:2026-05-01T10:00:00.000Z',
      status: 'delivered',
    });
  });
});

describe('callback tokens', () => {
  it('name their tenant, and nothing else passes', () => {
    expect(tenantOfToken('acct_abc123.live.abcdefghijklmnopqrstuvwx')).toEqual({ accountId: 'acct_abc123', mode: 'live' });
    for (const token of ['acct_abc.prod.abcdefghijklmnopqrstuvwx', 'acct_abc.live.short', 'x.live.abcdefghijklmnopqrstuvwx', '']) {
      expect(tenantOfToken(token), token).toBeUndefined();
    }
  });
});

describe('which shipment Sendcloud answers is the label made for our reference (judgeShipment)', () => {
  const reference = 'acct_1:live:shipment:42';
  const shipment = (overrides: Record<string, unknown> = {}, parcel: Record<string, unknown> = {}) => ({
    id: 'sc-1',
    external_reference_id: reference,
    parcels: [{ id: 7, status: { code: 'READY_TO_SEND' }, tracking_number: '3SYZXG1', tracking_url: null, ...parcel }],
    errors: [],
    ...overrides,
  });

  it('adopts a live shipment of exactly our reference', () => {
    expect(judgeShipment(shipment(), reference)).toEqual({
      label: {
        carrier_shipment_id: 'sc-1',
        parcel_ids: ['7'],
        tracking_number: '3SYZXG1',
        tracking_url: null,
        parcel_tracking_numbers: ['3SYZXG1'],
      },
    });
  });

  it('takes a shipment of another reference, or of none, for not ours', () => {
    for (const other of [
      { external_reference_id: `${reference}0` },
      { external_reference_id: null },
      { external_reference_id: undefined },
    ]) {
      expect(judgeShipment(shipment(other), reference), JSON.stringify(other)).toEqual({ foreign: true });
    }
    expect(judgeShipment(undefined as never, reference)).toEqual({ foreign: true });
  });

  it('calls ours but cancelled, being cancelled or failed spent — never a label', () => {
    for (const code of ['CANCELLED', 'cancelled_upstream', 'CANCELLATION_REQUESTED', 'SUBMITTING_CANCELLATION']) {
      expect(judgeShipment(shipment({}, { status: { code } }), reference), code).toEqual({ spent: 'cancelled' });
    }
    // A status as callbacks write it (a numeric id), and one cancelled parcel of several.
    for (const id of [2000, 1998, 1999, 2001]) {
      expect(judgeShipment(shipment({}, { status: { id, message: 'Cancelled' } }), reference), String(id)).toEqual({ spent: 'cancelled' });
    }
    const two = shipment({
      parcels: [
        { id: 7, status: { code: 'READY_TO_SEND' }, tracking_number: '3SYZXG1' },
        { id: 8, status: { code: 'CANCELLED' }, tracking_number: '3SYZXG2' },
      ],
    });
    expect(judgeShipment(two, reference)).toEqual({ spent: 'cancelled' });
    expect(judgeShipment(shipment({}, { status: { code: 'ANNOUNCEMENT_FAILED' } }), reference)).toMatchObject({
      spent: expect.any(String),
    });
    expect(judgeShipment(shipment({ parcels: [] }), reference)).toMatchObject({ spent: expect.any(String) });
    // A parcel whose cancellation failed is still live.
    expect(judgeShipment(shipment({}, { status: { code: 'PARCEL_CANCELLATION_FAILED' } }), reference)).toHaveProperty('label');
  });
});

describe('which `creating` shipment the next request settles now (settleable)', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();

  it('one whose creator gave up unsure at once, any other once older than STALE_CREATION_MS', () => {
    expect(settleable({ unsettled_at: at(0), created_at: at(0) }, now)).toBe(true);
    expect(settleable({ unsettled_at: null, created_at: at(0.5) }, now)).toBe(false);
    expect(settleable({ unsettled_at: null, created_at: at(STALE_CREATION_MS / 60_000) }, now)).toBe(true);
  });
});

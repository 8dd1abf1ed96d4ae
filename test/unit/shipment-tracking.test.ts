/**
 * Tracking, parcel by parcel: a shipment of several parcels takes its status from its parcels
 * (delivered when every parcel is), each parcel moving by its own reports; Sendcloud's tracking
 * answer (shaped like the parcel tracking description's example) parsed by status code and sub
 * status, never by its severity; Sendcloud's error bodies keep their message whatever their shape.
 */
import { describe, expect, it } from 'vitest';
import { sendcloudErrorDetails, stateProvinceCode, updatesOfTracking } from '#shared/shipments/carriers/sendcloud';
import { applyUpdate, shipmentStatusOf, type CarrierUpdate, type ShipmentStatus, type TrackingState } from '#shared/shipments/status';

const update = (status: ShipmentStatus | null, at: string, parcel_id?: string): CarrierUpdate => ({
  key: `${parcel_id ?? 'all'}:${status}:${at}`,
  ...(parcel_id ? { parcel_id } : {}),
  status,
  carrier_status: status,
  description: String(status),
  location: null,
  occurred_at: at,
});

const t = (hour: number) => `2026-05-01T${String(hour).padStart(2, '0')}:00:00.000Z`;

describe('a shipment of several parcels', () => {
  const start: TrackingState = {
    status: 'label_created',
    status_at: t(8),
    events: [],
    seen: [],
    parcels: ['p1', 'p2', 'p3'].map((parcel_id) => ({
      parcel_id,
      tracking_number: `T-${parcel_id}`,
      status: 'label_created',
      status_at: t(8),
    })),
  };
  const apply = (state: TrackingState, ...updates: CarrierUpdate[]) =>
    updates.reduce((current, next) => applyUpdate(current, next).state, state);

  it('is in transit when one parcel leaves, and delivered only when every parcel is', () => {
    const one = applyUpdate(start, update('in_transit', t(9), 'p1'));
    expect(one.outcome).toBe('applied');
    expect(one.state.status).toBe('in_transit');
    const twoDelivered = apply(one.state, update('delivered', t(10), 'p1'), update('delivered', t(11), 'p2'));
    expect(twoDelivered.status).toBe('in_transit');
    expect(twoDelivered.parcels!.map((parcel) => parcel.status)).toEqual(['delivered', 'delivered', 'label_created']);
    const last = applyUpdate(twoDelivered, update('delivered', t(12), 'p3'));
    expect(last.outcome).toBe('applied');
    expect(last.state.status).toBe('delivered');
    expect(last.state.events.at(-1)!.description).toBe('Parcel 3 of 3: delivered');
  });

  it("moves each parcel by its own time: a parcel's report older than another parcel's still counts", () => {
    const first = apply(start, update('out_for_delivery', t(12), 'p1'));
    const late = applyUpdate(first, update('in_transit', t(10), 'p2'));
    expect(late.outcome).toBe('recorded');
    expect(late.state.parcels![1]!.status).toBe('in_transit');
    // …but never moves a parcel back.
    expect(applyUpdate(late.state, update('label_created', t(13), 'p2')).outcome).toBe('stale');
  });

  it('is an exception while any parcel has one, and takes a report without a parcel (a cancellation) for every parcel', () => {
    const trouble = apply(start, update('in_transit', t(9), 'p1'), update('exception', t(10), 'p2'));
    expect(trouble.status).toBe('exception');
    expect(apply(start, update('cancelled', t(9))).status).toBe('cancelled');
  });

  it('decides the status from the parcels', () => {
    expect(shipmentStatusOf(['delivered', 'delivered'])).toBe('delivered');
    expect(shipmentStatusOf(['delivered', 'cancelled'])).toBe('delivered');
    expect(shipmentStatusOf(['delivered', 'returned'])).toBe('returned');
    expect(shipmentStatusOf(['cancelled', 'cancelled'])).toBe('cancelled');
    expect(shipmentStatusOf(['delivered', 'in_transit'])).toBe('in_transit');
    expect(shipmentStatusOf(['out_for_delivery', 'label_created'])).toBe('out_for_delivery');
    expect(shipmentStatusOf(['exception', 'delivered'])).toBe('exception');
    expect(shipmentStatusOf(['label_created', 'cancelled'])).toBe('label_created');
  });
});

describe("Sendcloud's tracking answer", () => {
  // Shaped like the parcel tracking description's `parcel-tracking-response` example.
  const documented = {
    announced_at: '2024-01-01T00:00:00Z',
    created_at: '2024-01-01T00:00:00Z',
    details: {
      brand_id: 123,
      expected_delivery_date: '2024-01-03',
      integration_id: 456,
      is_mail_box: false,
      is_return: false,
      is_to_service_point: false,
    },
    events: [
      {
        event_at: '2024-01-03T09:00:00Z',
        event_type: 'carrier',
        status_code: 'delivered',
        status_description: 'Parcel has been delivered.',
        status_type: 'success',
        sub_status_code: 'none',
      },
      {
        event_at: '2024-01-02T00:00:00Z',
        event_type: 'carrier',
        status_code: 'accepted',
        status_description: 'Parcel has been accepted by the carrier.',
        status_type: 'success',
        sub_status_code: 'none',
      },
      {
        event_at: '2024-01-02T12:00:00Z',
        event_type: 'calculated',
        status_code: 'unknown',
        status_type: 'warning',
        sub_status_code: 'none',
      },
    ],
    tracking_numbers: [
      { carrier_code: 'postnl', tracking_number: '3SYZXG8498635', tracking_url: 'https://tracking.example/3SYZXG8498635' },
    ],
    updated_at: '2024-01-01T00:00:00Z',
  };

  it('becomes updates oldest first, by status code; the severity (status_type) is never a status', () => {
    expect(updatesOfTracking(documented)).toEqual([
      {
        key: 'sendcloud:track:accepted:2024-01-02T00:00:00Z',
        status: 'in_transit',
        carrier_status: 'accepted',
        description: 'Parcel has been accepted by the carrier.',
        location: null,
        occurred_at: '2024-01-02T00:00:00.000Z',
      },
      expect.objectContaining({ status: null, carrier_status: 'unknown', description: 'unknown' }),
      expect.objectContaining({ status: 'delivered', carrier_status: 'delivered', occurred_at: '2024-01-03T09:00:00.000Z' }),
    ]);
    const severityOnly = { events: [{ event_at: '2024-01-02T00:00:00Z', status_type: 'delivered' }] };
    expect(updatesOfTracking(severityOnly)[0]!.status).toBeNull();
  });

  it('lets a deciding sub status win, and names the parcel when the shipment has several', () => {
    const returned = { events: [{ event_at: '2024-01-05T00:00:00Z', status_code: 'in_transit', sub_status_code: 'returned_sender' }] };
    expect(updatesOfTracking(returned, '383707310')).toEqual([
      expect.objectContaining({
        key: 'sendcloud:track:383707310:in_transit/returned_sender:2024-01-05T00:00:00Z',
        parcel_id: '383707310',
        status: 'returned',
      }),
    ]);
  });
});

describe("Sendcloud's error bodies", () => {
  it('keep their message whatever the shape: a JSON:API list, an errors object, a detail', () => {
    expect(
      sendcloudErrorDetails({
        errors: [{ status: '400', code: 'required', detail: 'This field is required.', source: { pointer: '/to_address/name' } }],
      }),
    ).toEqual({
      message: 'This field is required.',
      details: [{ field: '/to_address/name', message: 'This field is required.' }],
    });
    expect(
      sendcloudErrorDetails({ errors: { to_address: { postal_code: ['Invalid postal code.'] }, detail: 'Validation failed.' } }),
    ).toEqual({
      message: 'Invalid postal code.; Validation failed.',
      details: [
        { field: 'to_address.postal_code', message: 'Invalid postal code.' },
        { field: 'carrier', message: 'Validation failed.' },
      ],
    });
    expect(sendcloudErrorDetails({ errors: { non_field_errors: ['The shipping option is not available.'] } }).message).toBe(
      'The shipping option is not available.',
    );
    expect(sendcloudErrorDetails({ detail: 'Parcel does not exist' }).message).toBe('Parcel does not exist');
    expect(sendcloudErrorDetails({ detail: [{ loc: ['path', 'tracking_number'], msg: 'too long' }] }).details).toEqual([
      { field: 'path.tracking_number', message: 'too long' },
    ]);
  });
});

describe('state_province_code', () => {
  it('is sent only as an ISO 3166-2 subdivision code of the address’s country', () => {
    expect(stateProvinceCode('US-NY', 'US')).toBe('US-NY');
    expect(stateProvinceCode('ny', 'US')).toBe('US-NY');
    expect(stateProvinceCode('RM', 'IT')).toBe('IT-RM');
    expect(stateProvinceCode('New York', 'US')).toBeUndefined();
    expect(stateProvinceCode('CA-ON', 'US')).toBeUndefined();
    expect(stateProvinceCode('US-ABCD', 'US')).toBeUndefined();
    expect(stateProvinceCode(null, 'US')).toBeUndefined();
    expect(stateProvinceCode('  ', 'US')).toBeUndefined();
  });
});

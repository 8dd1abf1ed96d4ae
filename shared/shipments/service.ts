/**
 * Shipments: read, list, cancel, simulate (test mode), tracking. Creating is creation.ts; every
 * status change goes through updates.ts (`applyCarrierUpdates`), callbacks too (callbacks.ts).
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey } from '#shared/db/keys';
import { CarrierError, ConflictError, DomainError, NotFoundError, ValidationError } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { logger } from '#shared/logger';
import { simulatedUpdate } from './carriers/sandbox';
import * as repo from './repository';
import type { OrderShipmentsQuery, ShipmentListQuery, ShipmentSimulate } from './schema';
import { carrierFor } from './settings';
import { isCancellable, isFinal, type TrackingEvent } from './status';
import { carrierLabelOf, type ShipmentRecord } from './stored';
import { applyCarrierUpdates, applyReturnUpdates, presentShipment } from './updates';

export type ShipmentView = ReturnType<typeof presentShipment>;

/** Tracking is asked from the carrier again when the last answer is older than this. */
export const TRACKING_REFRESH_MS = 5 * 60_000;

// ---- Read and list ----------------------------------------------------------------------------

export async function getShipment(tenant: Tenant, id: number): Promise<ShipmentView> {
  return presentShipment(await repo.requireShipment(tenant, id));
}

export interface ShipmentPage {
  items: ShipmentView[];
  total: number;
  capped: boolean;
  hasMore: boolean;
}

/** The cursor's shipment: the one `starting_after` names (422 when the tenant has none; one still being created is none yet). */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<ShipmentRecord | undefined> {
  return cursorEntry(
    id,
    'shipment',
    (id) => repo.readShipment(tenant, id),
    (shipment) => shipment.phase === 'recorded',
  );
}

/**
 * An order's shipments (at most MAX_SHIPMENTS_PER_ORDER): read by id from its summary, filtered and
 * paged in memory, newest first; a cursor keeps the ones created before it, wherever it sorts.
 */
async function orderShipments(tenant: Tenant, orderId: number, query: OrderShipmentsQuery): Promise<ShipmentPage> {
  // Both read at once; an unknown order is a 404 whatever the cursor is (its 422 is awaited only after).
  const cursorRead = cursorOf(tenant, query.starting_after);
  cursorRead.catch(() => undefined);
  const { order, shipping } = await repo.readOrderWithShipping(tenant, orderId);
  if (!order) throw new NotFoundError('order', orderId);
  const after = await cursorRead;
  const all = await repo.readShipments(
    tenant,
    (shipping?.shipments ?? []).map((entry) => entry.id),
  );
  const matching = all
    .filter(
      (shipment) =>
        (query.status === undefined || shipment.status === query.status) &&
        (query.carrier === undefined || shipment.carrier === query.carrier),
    )
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
  const cursor = after && createdSortKey(after.created_at, after.id);
  const rest = cursor === undefined ? matching : matching.filter((shipment) => createdSortKey(shipment.created_at, shipment.id) < cursor);
  const start = (query.page - 1) * query.per_page;
  const page = rest.slice(start, start + query.per_page);
  return { items: page.map(presentShipment), total: matching.length, capped: false, hasMore: start + query.per_page < rest.length };
}

/** `GET /v1/shipments` (with `order_id`: that order's, 404 for an unknown order). */
export async function listShipments(tenant: Tenant, query: ShipmentListQuery): Promise<ShipmentPage> {
  if (query.order_id !== undefined) return orderShipments(tenant, query.order_id, query);
  const after = await cursorOf(tenant, query.starting_after);
  const result = await repo.listShipments(
    tenant,
    { status: query.status, carrier: query.carrier },
    { page: query.page, perPage: query.per_page, after },
  );
  return { ...result, items: result.items.map(presentShipment) };
}

/** `GET /v1/orders/{id}/shipments`. */
export const listOrderShipments = (tenant: Tenant, orderId: number, query: OrderShipmentsQuery): Promise<ShipmentPage> =>
  orderShipments(tenant, orderId, query);

// ---- Cancel, simulate, track ------------------------------------------------------------------

/**
 * `POST /v1/shipments/{id}/cancel`: before pickup only (409 otherwise). The carrier is asked first
 * (its refusal: 409 with its reason); cancelled at once, the shipment moves to `cancelled` and its
 * items are free to ship again; accepted for later (Sendcloud's 202), it records the request and
 * the carrier's callback cancels it.
 */
export async function cancelShipment(tenant: Tenant, id: number, now = new Date()): Promise<ShipmentView> {
  const shipment = await repo.requireShipment(tenant, id, true);
  if (!isCancellable(shipment.status)) {
    throw new ConflictError(`Shipment ${id} is ${shipment.status}: only a shipment not picked up yet (label_created) can be cancelled`);
  }
  const carrier = await carrierFor(tenant, shipment.carrier);
  const outcome = await carrier.cancel(carrierLabelOf(shipment));
  const at = now.toISOString();
  const update =
    outcome === 'cancelled'
      ? {
          key: `cancel:${at}`,
          status: 'cancelled' as const,
          carrier_status: null,
          description: 'Cancelled',
          location: null,
          occurred_at: at,
        }
      : {
          key: `cancel-requested:${at}`,
          status: null,
          carrier_status: null,
          description: 'Cancellation requested',
          location: null,
          occurred_at: at,
        };
  const result = await applyCarrierUpdates(tenant, id, [update], {
    now,
    patch: () => (outcome === 'requested' ? { cancel_requested_at: at } : {}),
  });
  return presentShipment(result.shipment);
}

/**
 * `POST /v1/shipments/{id}/simulate` (test mode only: 403 with a live key): the sandbox carrier
 * reports `status` for parcel `parcel` (default: every parcel of the shipment), and the report takes the path a carrier's
 * callback takes (updates.ts): ordered by its time, idempotent, moving the order's milestones.
 */
export async function simulateShipment(tenant: Tenant, id: number, input: ShipmentSimulate, now = new Date()): Promise<ShipmentView> {
  const shipment = await repo.requireShipment(tenant, id);
  if (tenant.mode !== 'test') {
    throw new DomainError('forbidden', 'simulate moves sandbox shipments: test mode only (a live shipment moves by its carrier)');
  }
  const at = input.occurred_at ? new Date(input.occurred_at) : now;
  if (input.return) {
    const made = shipment.return_shipment;
    if (!made) throw new ConflictError(`Shipment ${id} has no return label (POST /v1/shipments/${id}/return-label)`);
    const reported = simulatedUpdate(made.carrier_parcel_id, input.status, at, input.location ?? null);
    return presentShipment((await applyReturnUpdates(tenant, id, [reported], { now })).shipment);
  }
  if (input.parcel !== undefined && input.parcel > shipment.carrier_parcel_ids.length) {
    throw new ValidationError(`Shipment ${id} has ${shipment.carrier_parcel_ids.length} parcels`, [
      { field: 'parcel', message: `must be at most ${shipment.carrier_parcel_ids.length}` },
    ]);
  }
  const parcelId = input.parcel === undefined ? undefined : shipment.carrier_parcel_ids[input.parcel - 1];
  const update = simulatedUpdate(
    parcelId ?? shipment.carrier_parcel_ids[0] ?? shipment.external_reference,
    input.status,
    at,
    input.location ?? null,
    parcelId,
  );
  const result = await applyCarrierUpdates(tenant, id, [update], { now });
  return presentShipment(result.shipment);
}

export interface TrackingView {
  shipment_id: number;
  status: ShipmentRecord['status'];
  tracking_number: string | null;
  tracking_url: string | null;
  events: Omit<TrackingEvent, 'carrier_status'>[];
  refreshed_at: string | null;
}

const trackingView = (shipment: ShipmentRecord): TrackingView => ({
  shipment_id: shipment.id,
  status: shipment.status,
  tracking_number: shipment.tracking_number,
  tracking_url: shipment.tracking_url,
  events: shipment.events.map(({ status, description, location, occurred_at }) => ({ status, description, location, occurred_at })),
  refreshed_at: shipment.tracking_refreshed_at,
});

/** The return's tracking too, when the shipment has a return on its way (a failing carrier leaves it as stored). */
async function refreshReturn(tenant: Tenant, shipment: ShipmentRecord, now: Date): Promise<ShipmentRecord> {
  const made = shipment.return_shipment;
  if (!made || isFinal(made.status) || !made.tracking_number) return shipment;
  const at = now.toISOString();
  try {
    const carrier = await carrierFor(tenant, shipment.carrier);
    const label = {
      carrier_shipment_id: made.carrier_return_id,
      parcel_ids: [made.carrier_parcel_id],
      tracking_number: made.tracking_number,
      tracking_url: made.tracking_url,
    };
    const updates = await carrier.track(label);
    return (await applyReturnUpdates(tenant, shipment.id, updates, { now, patch: () => ({ tracking_refreshed_at: at }) })).shipment;
  } catch (error) {
    if (!(error instanceof CarrierError)) throw error;
    logger.warn('return tracking not refreshed: the carrier failed', { shipment: shipment.id, error });
    return shipment;
  }
}

/**
 * `GET /v1/shipments/{id}/tracking`: the stored events; asked from the carrier again (and its news
 * applied like a callback's) when the last answer is older than TRACKING_REFRESH_MS and the
 * shipment is not final. The sandbox tracks nothing by itself (simulate moves it). A carrier that
 * fails to answer leaves the stored events answered.
 */
export async function getTracking(tenant: Tenant, id: number, now = new Date()): Promise<TrackingView> {
  const shipment = await repo.requireShipment(tenant, id);
  const last = shipment.tracking_refreshed_at ? Date.parse(shipment.tracking_refreshed_at) : 0;
  if (tenant.mode === 'test' || now.getTime() - last < TRACKING_REFRESH_MS) return trackingView(shipment);
  // A delivered shipment may still have its return on the way back.
  if (isFinal(shipment.status)) return trackingView(await refreshReturn(tenant, shipment, now));
  let updates;
  try {
    updates = await (await carrierFor(tenant, shipment.carrier)).track(carrierLabelOf(shipment));
  } catch (error) {
    if (!(error instanceof CarrierError)) throw error;
    logger.warn('tracking not refreshed: the carrier failed', { shipment: id, error });
    return trackingView(shipment);
  }
  const at = now.toISOString();
  const result = await applyCarrierUpdates(tenant, id, updates, { now, patch: () => ({ tracking_refreshed_at: at }) });
  return trackingView(await refreshReturn(tenant, result.shipment, now));
}

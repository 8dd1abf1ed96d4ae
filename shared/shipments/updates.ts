/**
 * The one path every change of a recorded shipment's status takes — a carrier's signed callback, a
 * sandbox simulation, a tracking refresh, a cancellation — so they all behave alike:
 *
 * 1. read the shipment (consistent) and apply the reports in turn (status.ts `applyUpdate`: a
 *    report seen before changes nothing; an older one never moves the status back);
 * 2. when the status moves, read the order with its shipping summary (one BatchGetItem), move the
 *    shipment's entry in the summary and decide the order's milestones (milestones.ts);
 * 3. write it all in one transaction: the shipment (if its version is still the one read), the
 *    summary (same), the order's move (if its status and version are still the ones read) with its
 *    list and counter moves and its events, and `shipment.delivered`.
 *
 * A lost race (VersionConflict) reads again and decides again, so each milestone is written once.
 * No carrier is called inside: the carrier was asked before, and a transaction is never held open.
 */
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import type { TransactItem, TransactionPart } from '#shared/db/table';
import { VersionConflict } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import type { OrderRecord } from '#shared/orders/stored';
import { orderChangeParts, type Part } from '#shared/orders/transitions';
import { shipmentDelivered, shipmentReturned } from './events';
import { milestonesOf, orderStatusAfter, type Milestones } from './milestones';
import * as repo from './repository';
import { applyUpdate, type CarrierUpdate, type TrackingState, type UpdateOutcome } from './status';
import { orderShippingWrite, shipmentChangeParts, storedShipment, type OrderShippingRecord, type ShipmentRecord } from './stored';

export const presentShipment: typeof storedShipment.view = (value) => storedShipment.view(value);

export interface UpdateResult {
  shipment: ShipmentRecord;
  /** What became of each report, in order. */
  outcomes: UpdateOutcome[];
  milestones: Milestones;
}

export interface UpdateOptions {
  /** Other fields the same write sets (a cancellation request's time, the tracking refresh time). */
  patch?: (after: ShipmentRecord) => Partial<ShipmentRecord>;
  now?: Date;
}

const summaryMoved = () => new VersionConflict('order shipping');
const shipmentMoved = () => new VersionConflict('shipment');

/** The order's move for its milestones, through the orders' transitions (nothing when there are none). */
function orderParts(tenant: Tenant, order: OrderRecord, milestones: Milestones, now: Date): Part[] {
  const to = orderStatusAfter(order.status, milestones);
  if (to === order.status) return [];
  const after: OrderRecord = { ...order, status: to, updated_at: now.toISOString(), version: order.version + 1 };
  // Shipped and completed by one change: it passes through shipped (order.shipped, then order.completed).
  const via = milestones.ship && milestones.complete ? (['shipped'] as const) : [];
  return orderChangeParts(tenant, order, after, { by: 'shipments', via, now });
}

/** Applies `updates` to recorded shipment `id` (see the module comment). */
export async function applyCarrierUpdates(
  tenant: Tenant,
  id: number,
  updates: readonly CarrierUpdate[],
  options: UpdateOptions = {},
): Promise<UpdateResult> {
  const now = options.now ?? new Date();
  return retryOnVersionConflict('shipment', async () => {
    const before = await repo.requireShipment(tenant, id, true);
    let state: TrackingState = {
      status: before.status,
      status_at: before.status_at,
      events: before.events,
      seen: before.seen,
      parcels: before.parcel_tracking,
    };
    const outcomes: UpdateOutcome[] = [];
    for (const update of updates) {
      const next = applyUpdate(state, update);
      state = next.state;
      outcomes.push(next.outcome);
    }
    const patch = options.patch?.(before) ?? {};
    const none: Milestones = { ship: false, complete: false };
    if (outcomes.every((outcome) => outcome === 'duplicate') && Object.keys(patch).length === 0) {
      return { shipment: before, outcomes, milestones: none };
    }
    const delivered = state.status === 'delivered' && before.status !== 'delivered';
    const after: ShipmentRecord = {
      ...before,
      ...patch,
      status: state.status,
      status_at: state.status_at,
      events: state.events,
      seen: state.seen,
      parcel_tracking: state.parcels ?? before.parcel_tracking,
      delivered_at: delivered ? state.status_at : before.delivered_at,
      updated_at: now.toISOString(),
      version: before.version + 1,
    };
    const [shipmentUpdate, ...moves] = shipmentChangeParts(tenant, before, after);
    const parts: (TransactItem | TransactionPart)[] = [{ item: shipmentUpdate!, onConditionFailure: shipmentMoved }, ...moves];
    let milestones = none;
    if (after.status !== before.status) {
      const { order, shipping } = await repo.readOrderWithShipping(tenant, before.order_id);
      const summary: OrderShippingRecord = shipping ?? { order_id: before.order_id, shipments: [], version: 0 };
      const entries = summary.shipments.some((entry) => entry.id === id)
        ? summary.shipments.map((entry) => (entry.id === id ? { ...entry, status: after.status } : entry))
        : [...summary.shipments, { id, status: after.status, items: after.items }];
      const nextSummary: OrderShippingRecord = { ...summary, shipments: entries, version: summary.version + 1 };
      parts.push({ item: orderShippingWrite(tenant, shipping, nextSummary), onConditionFailure: summaryMoved });
      if (order) {
        milestones = milestonesOf(order.status, order.items, entries);
        parts.push(...orderParts(tenant, order, milestones, now));
      }
      if (delivered) parts.push(eventPut(tenant, shipmentDelivered, { shipment: presentShipment(after) }, now).item);
      // Returned to the shop by its carrier: back at the shop, once (such a shipment takes no return label: returns.ts).
      if (after.status === 'returned' && before.status !== 'returned') {
        parts.push(eventPut(tenant, shipmentReturned, { shipment: presentShipment(after) }, now).item);
      }
    }
    await repo.writeShipmentChange(parts);
    return { shipment: after, outcomes, milestones };
  });
}

/**
 * Applies `updates` to the return of recorded shipment `id` (its return parcel's callbacks, a
 * simulation, a tracking refresh), by the same rule as a shipment's (status.ts `applyUpdate`): the
 * same report twice is one, an older one never moves it back. The return reaching `delivered` — it
 * has arrived back at the shop — writes `shipment.returned` in the same transaction, once. The
 * shipment's own status and its order are not moved.
 */
export async function applyReturnUpdates(
  tenant: Tenant,
  id: number,
  updates: readonly CarrierUpdate[],
  options: UpdateOptions = {},
): Promise<UpdateResult> {
  const now = options.now ?? new Date();
  const none: Milestones = { ship: false, complete: false };
  return retryOnVersionConflict('shipment', async () => {
    const before = await repo.requireShipment(tenant, id, true);
    const made = before.return_shipment;
    if (!made) return { shipment: before, outcomes: updates.map(() => 'duplicate' as const), milestones: none };
    let state: TrackingState = { status: made.status, status_at: made.status_at, events: made.events, seen: made.seen };
    const outcomes: UpdateOutcome[] = [];
    for (const { parcel_id: _parcel, ...update } of updates) {
      const next = applyUpdate(state, update);
      state = next.state;
      outcomes.push(next.outcome);
    }
    const patch = options.patch?.(before) ?? {};
    if (outcomes.every((outcome) => outcome === 'duplicate') && Object.keys(patch).length === 0) {
      return { shipment: before, outcomes, milestones: none };
    }
    const arrived = state.status === 'delivered' && made.status !== 'delivered';
    const after: ShipmentRecord = {
      ...before,
      ...patch,
      return_shipment: {
        ...made,
        status: state.status,
        status_at: state.status_at,
        events: state.events,
        seen: state.seen,
        arrived_at: arrived ? state.status_at : made.arrived_at,
      },
      updated_at: now.toISOString(),
      version: before.version + 1,
    };
    const [shipmentUpdate, ...moves] = shipmentChangeParts(tenant, before, after);
    const parts: (TransactItem | TransactionPart)[] = [{ item: shipmentUpdate!, onConditionFailure: shipmentMoved }, ...moves];
    if (arrived) parts.push(eventPut(tenant, shipmentReturned, { shipment: presentShipment(after) }, now).item);
    await repo.writeShipmentChange(parts);
    return { shipment: after, outcomes, milestones: none };
  });
}

/** The shipment a carrier's parcel belongs to (callbacks name parcels); undefined for a parcel not made here. */
export const shipmentIdOfParcel = (tenant: Tenant, carrier: ShipmentRecord['carrier'], parcelId: string) =>
  repo.shipmentOfParcel(tenant, carrier, parcelId);

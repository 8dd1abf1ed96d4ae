/**
 * Shipment statuses: one normalised set for every carrier (each adapter maps its own statuses to
 * it with one table: carriers/sendcloud-status.ts, the sandbox uses these directly), and the rule
 * that decides whether a carrier update moves a shipment. Pure; the repository makes the decision
 * stick with a condition on the version it read.
 */
export const SHIPMENT_STATUSES = [
  'label_created',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
  'returned',
  'cancelled',
] as const;

export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

/** Final: nothing a carrier says later moves a shipment out of these. */
export const FINAL_STATUSES: readonly ShipmentStatus[] = ['delivered', 'returned', 'cancelled'];

export const isFinal = (status: ShipmentStatus): boolean => FINAL_STATUSES.includes(status);

/**
 * from → the statuses a carrier update may move it to (the same status is always allowed: a new
 * event of the same phase, "sorted" after "at sorting centre"). A parcel comes back from an
 * exception; it is cancelled only before it moves.
 */
export const SHIPMENT_TRANSITIONS: Readonly<Record<ShipmentStatus, readonly ShipmentStatus[]>> = {
  label_created: ['in_transit', 'out_for_delivery', 'delivered', 'exception', 'returned', 'cancelled'],
  in_transit: ['out_for_delivery', 'delivered', 'exception', 'returned'],
  out_for_delivery: ['in_transit', 'delivered', 'exception', 'returned'],
  exception: ['in_transit', 'out_for_delivery', 'delivered', 'returned', 'cancelled'],
  delivered: [],
  returned: [],
  cancelled: [],
};

export const canMove = (from: ShipmentStatus, to: ShipmentStatus): boolean =>
  (from === to && !isFinal(from)) || SHIPMENT_TRANSITIONS[from].includes(to);

/** Statuses in which the parcel has left the shop: the first of them makes the order `shipped`. */
export const MOVING_STATUSES: readonly ShipmentStatus[] = ['in_transit', 'out_for_delivery', 'delivered'];

/** A shipment can be cancelled (at the carrier) only before pickup. */
export const isCancellable = (status: ShipmentStatus): boolean => status === 'label_created';

/** One normalised tracking event, as stored on the shipment and shown by `/tracking`. */
export interface TrackingEvent {
  status: ShipmentStatus;
  description: string;
  location: string | null;
  occurred_at: string;
  /** The carrier's own status (e.g. `11` for Sendcloud's "Delivered"), for support. */
  carrier_status: string | null;
}

/**
 * What a carrier reports about a parcel, normalised. `status` null: the carrier's status maps to
 * none of ours (Sendcloud's "being announced", "cancellation requested"): recorded, the status kept.
 * `key` identifies the report (carrier status + its timestamp): the same report twice is one.
 */
export interface CarrierUpdate {
  key: string;
  /** The carrier's parcel it is about (a callback's, a parcel's tracking); absent: every parcel of the shipment (a cancellation). */
  parcel_id?: string;
  status: ShipmentStatus | null;
  carrier_status: string | null;
  description: string;
  location: string | null;
  occurred_at: string;
}

/** How many events a shipment keeps (the newest), and how many report keys it remembers. */
export const MAX_EVENTS = 100;
export const MAX_SEEN_KEYS = 200;

/** One parcel of a shipment as its carrier reported it: its own status and the time of the report it came from. */
export interface ParcelState {
  parcel_id: string;
  tracking_number: string | null;
  status: ShipmentStatus;
  status_at: string;
}

export interface TrackingState {
  status: ShipmentStatus;
  /** The time of the report the status came from (ISO); a report older than this never moves it. */
  status_at: string;
  events: TrackingEvent[];
  seen: string[];
  /** Each parcel's own status (a multi-parcel shipment); absent or empty: the shipment is one parcel. */
  parcels?: ParcelState[];
}

/**
 * The shipment's status from its parcels' (docs/shipping.md#several-parcels): delivered when every
 * parcel is; once every parcel is final, cancelled when all are, else delivered when every parcel not
 * cancelled is, else returned. Before that: an exception when any parcel has one, out for delivery
 * when any is, in transit when any has left, else label created.
 */
export function shipmentStatusOf(parcels: readonly ShipmentStatus[]): ShipmentStatus {
  if (parcels.every(isFinal)) {
    const live = parcels.filter((status) => status !== 'cancelled');
    if (live.length === 0) return 'cancelled';
    return live.every((status) => status === 'delivered') ? 'delivered' : 'returned';
  }
  if (parcels.includes('exception')) return 'exception';
  if (parcels.includes('out_for_delivery')) return 'out_for_delivery';
  if (parcels.some((status) => status === 'in_transit' || status === 'delivered' || status === 'returned')) return 'in_transit';
  return 'label_created';
}

/**
 * A parcel's state after a report about it: it moves like a shipment (newer, allowed), and a newer
 * report of its status refreshes its time.
 */
function parcelAfter(parcel: ParcelState, update: CarrierUpdate): ParcelState {
  if (update.status === null || update.occurred_at < parcel.status_at) return parcel;
  if (update.status === parcel.status) return isFinal(parcel.status) ? parcel : { ...parcel, status_at: update.occurred_at };
  return canMove(parcel.status, update.status) ? { ...parcel, status: update.status, status_at: update.occurred_at } : parcel;
}

export type UpdateOutcome = 'applied' | 'recorded' | 'duplicate' | 'stale';

/**
 * Applies one carrier report to a shipment's tracking state:
 * - `duplicate`: seen before (same key) — nothing changes;
 * - `stale`: older than the report the status came from, or a move the status machine refuses
 *   (a parcel `in_transit` after `delivered`) — added to the history (if new) but the status stays;
 * - `recorded`: no status of ours (or the same status) — an event in the history, the status stays;
 * - `applied`: the status moves.
 * Events are kept in time order, newest last, at most MAX_EVENTS.
 */
export function applyUpdate(state: TrackingState, update: CarrierUpdate): { state: TrackingState; outcome: UpdateOutcome } {
  if (state.seen.includes(update.key)) return { state, outcome: 'duplicate' };
  if (state.parcels && state.parcels.length > 1) return applyParcelUpdate(state, state.parcels, update);
  const seen = [...state.seen, update.key].slice(-MAX_SEEN_KEYS);
  const newer = update.occurred_at >= state.status_at;
  const moves = update.status !== null && newer && update.status !== state.status && canMove(state.status, update.status);
  const shown: ShipmentStatus = update.status !== null && moves ? update.status : (update.status ?? state.status);
  const event: TrackingEvent = {
    status: shown,
    description: update.description,
    location: update.location,
    occurred_at: update.occurred_at,
    carrier_status: update.carrier_status,
  };
  const events = [...state.events, event].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at)).slice(-MAX_EVENTS);
  // A single parcel follows the shipment (its state is the shipment's).
  const single = (next: Pick<TrackingState, 'status' | 'status_at'>) =>
    state.parcels?.length === 1 ? { parcels: [{ ...state.parcels[0]!, ...next }] } : {};
  if (moves) {
    const next = { status: update.status!, status_at: update.occurred_at };
    return { state: { ...state, ...next, events, seen, ...single(next) }, outcome: 'applied' };
  }
  const sameStatus = update.status === null || update.status === state.status;
  if (sameStatus && newer && !isFinal(state.status)) {
    const next = { status: state.status, status_at: update.occurred_at };
    return { state: { ...state, status_at: update.occurred_at, events, seen, ...single(next) }, outcome: 'recorded' };
  }
  return { state: { ...state, events, seen }, outcome: sameStatus && newer ? 'recorded' : 'stale' };
}

/**
 * A report about a shipment of several parcels: it moves the parcel it names (or every parcel), each
 * by its own time and the status machine, and the shipment takes the status of its parcels
 * (shipmentStatusOf) when the machine allows the move. Kept in the history whatever it does, named
 * by its parcel.
 */
function applyParcelUpdate(
  state: TrackingState,
  parcels: ParcelState[],
  update: CarrierUpdate,
): { state: TrackingState; outcome: UpdateOutcome } {
  const seen = [...state.seen, update.key].slice(-MAX_SEEN_KEYS);
  const index = parcels.findIndex((parcel) => parcel.parcel_id === update.parcel_id);
  const targeted = (at: number) => update.parcel_id === undefined || index === -1 || at === index;
  const nextParcels = parcels.map((parcel, at) => (targeted(at) ? parcelAfter(parcel, update) : parcel));
  const aggregate = shipmentStatusOf(nextParcels.map((parcel) => parcel.status));
  const moves = aggregate !== state.status && canMove(state.status, aggregate);
  const event: TrackingEvent = {
    status: update.status ?? state.status,
    description: index === -1 ? update.description : `Parcel ${index + 1} of ${parcels.length}: ${update.description}`,
    location: update.location,
    occurred_at: update.occurred_at,
    carrier_status: update.carrier_status,
  };
  const events = [...state.events, event].sort((a, b) => a.occurred_at.localeCompare(b.occurred_at)).slice(-MAX_EVENTS);
  const statusAt = update.occurred_at > state.status_at ? update.occurred_at : state.status_at;
  if (moves) return { state: { status: aggregate, status_at: statusAt, events, seen, parcels: nextParcels }, outcome: 'applied' };
  // A parcel moved (or its status was reported again, newer), or no status of ours: recorded; else too old or refused: stale.
  const changed = nextParcels.some((parcel, at) => parcel !== parcels[at]);
  const repeated = parcels.some((parcel, at) => targeted(at) && parcel.status === update.status && update.occurred_at >= parcel.status_at);
  const outcome = changed || repeated || update.status === null ? 'recorded' : 'stale';
  return { state: { ...state, events, seen, parcels: nextParcels }, outcome };
}

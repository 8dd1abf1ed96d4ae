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
  status: ShipmentStatus | null;
  carrier_status: string | null;
  description: string;
  location: string | null;
  occurred_at: string;
}

/** How many events a shipment keeps (the newest), and how many report keys it remembers. */
export const MAX_EVENTS = 100;
export const MAX_SEEN_KEYS = 200;

export interface TrackingState {
  status: ShipmentStatus;
  /** The time of the report the status came from (ISO); a report older than this never moves it. */
  status_at: string;
  events: TrackingEvent[];
  seen: string[];
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
  if (moves) return { state: { status: update.status!, status_at: update.occurred_at, events, seen }, outcome: 'applied' };
  const sameStatus = update.status === null || update.status === state.status;
  if (sameStatus && newer && !isFinal(state.status)) {
    return { state: { ...state, status_at: update.occurred_at, events, seen }, outcome: 'recorded' };
  }
  return { state: { ...state, events, seen }, outcome: sameStatus && newer ? 'recorded' : 'stale' };
}

/**
 * Sendcloud's statuses → ours: the one mapping table of the Sendcloud adapter (docs/shipping.md
 * shows it, row by row). Each row names one status of ours and what Sendcloud reports for it in
 * each of its vocabularies:
 *
 * - `ids`: the numeric parcel status id of callbacks (`parcel_status_changed`, `parcel.status.id`);
 * - `codes`: the v3 status codes — the announce answer's `parcel.status.code` (`READY_TO_SEND`) and
 *   the tracking endpoint's `events[].status_code` (`accepted`, `in_transit`…), any case;
 * - `subStatuses`: the tracking endpoint's `events[].sub_status_code` that decide by themselves
 *   (a parcel sent back or cancelled, whatever phase it was in).
 *
 * The tracking events' `status_type` is a severity ("success", "warning"…), not a status: it is
 * never read. A status that is none of ours ("being announced", "cancellation requested") is a row
 * with `status: null`: recorded as an event, the status kept. So is anything the table does not know.
 */
import type { ShipmentStatus } from '#shared/shipments/status';

interface Row {
  status: ShipmentStatus | null;
  /** Parcel status id → Sendcloud's name for it (as callbacks say it). */
  ids: Readonly<Record<number, string>>;
  codes: readonly string[];
  subStatuses: readonly string[];
}

export const SENDCLOUD_STATUS_TABLE: readonly Row[] = [
  {
    status: 'label_created',
    ids: { 1000: 'Ready to send', 1: 'Announced', 13: 'Announced: not collected' },
    codes: ['announced', 'labelled', 'ready_to_send'],
    subStatuses: [],
  },
  {
    status: 'in_transit',
    ids: {
      22: 'Shipment picked up by driver',
      3: 'En route to sorting center',
      7: 'Being sorted',
      5: 'Sorted',
      91: 'Parcel en route',
      62990: 'At sorting centre',
      62989: 'At customs',
      4: 'Delivery delayed',
      62993: 'Delivery method changed',
      62994: 'Delivery date changed',
      62995: 'Delivery address changed',
    },
    codes: ['accepted', 'sorted', 'in_transit', 'customs', 'dropped'],
    subStatuses: [],
  },
  {
    status: 'out_for_delivery',
    ids: { 92: 'Driver en route', 12: 'Awaiting customer pickup' },
    codes: ['in_delivery', 'pup'],
    subStatuses: [],
  },
  {
    status: 'delivered',
    ids: { 11: 'Delivered', 93: 'Shipment collected by customer' },
    codes: ['delivered', 'delivery_forced'],
    subStatuses: [],
  },
  {
    status: 'exception',
    ids: {
      8: 'Delivery attempt failed',
      80: 'Unable to deliver',
      6: 'Not sorted',
      15: 'Error collecting',
      1002: 'Announcement failed',
      62996: 'Exception',
      62997: 'Address invalid',
      62991: 'Refused by recipient',
      94: 'Parcel cancellation failed',
      1337: 'Unknown',
    },
    codes: ['attempted', 'exception', 'announcement_failed'],
    subStatuses: [],
  },
  {
    status: 'returned',
    ids: { 62992: 'Returned to sender' },
    codes: ['returned', 'returned_sender'],
    subStatuses: ['returned_sender'],
  },
  {
    status: 'cancelled',
    ids: { 2000: 'Cancelled', 1998: 'Cancelled upstream' },
    codes: ['cancelled', 'cancelled_upstream'],
    subStatuses: ['cancelled', 'cancelled_upstream'],
  },
  {
    status: null,
    ids: { 999: 'No label', 1001: 'Being announced', 1999: 'Cancellation requested', 2001: 'Submitting cancellation request' },
    codes: ['no_label', 'announcing', 'being_announced', 'cancellation_requested', 'submitting_cancellation', 'none', 'unknown'],
    subStatuses: [],
  },
];

const byId = new Map(SENDCLOUD_STATUS_TABLE.flatMap((row) => Object.keys(row.ids).map((id) => [Number(id), row.status] as const)));
const byCode = new Map(SENDCLOUD_STATUS_TABLE.flatMap((row) => row.codes.map((code) => [code, row.status] as const)));
const bySubStatus = new Map(SENDCLOUD_STATUS_TABLE.flatMap((row) => row.subStatuses.map((code) => [code, row.status] as const)));

/** Parcel status ids of a shipment being cancelled (not cancelled yet): no label to adopt either. */
export const CANCELLING_IDS: ReadonlySet<number> = new Set([1999, 2001]);
/** Status codes (lower-cased) of a shipment being cancelled. */
export const CANCELLING_CODES: ReadonlySet<string> = new Set([
  'cancellation_requested',
  'submitting_cancellation',
  'submitting_cancellation_request',
]);

const normal = (code: string | null | undefined) => (code ?? '').trim().toLowerCase();

/** Our status of a callback's numeric status id; unknown ids keep the previous status (null). */
export const statusOfId = (id: number): ShipmentStatus | null => byId.get(id) ?? null;

/** Our status of a v3 status code (any case); unknown codes keep the previous status (null). */
export const statusOfCode = (code: string | null | undefined): ShipmentStatus | null => byCode.get(normal(code)) ?? null;

/**
 * Our status of one tracking event (`status_code` with its `sub_status_code`): a sub status that
 * decides by itself (returned to sender, cancelled) wins; else the status code. Never `status_type`.
 */
export const statusOfTrackingEvent = (
  statusCode: string | null | undefined,
  subStatusCode: string | null | undefined,
): ShipmentStatus | null => bySubStatus.get(normal(subStatusCode)) ?? statusOfCode(statusCode);

/** Sendcloud's name of a parcel status id, for an event without a message of its own. */
export const nameOfId = (id: number): string | undefined =>
  SENDCLOUD_STATUS_TABLE.map((row) => row.ids[id]).find((name) => name !== undefined);

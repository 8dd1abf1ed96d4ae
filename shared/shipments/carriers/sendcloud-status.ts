/**
 * Sendcloud's statuses → ours: the one mapping table of the Sendcloud adapter (docs/shipping.md
 * shows it). Callbacks (`parcel_status_changed`) carry the numeric parcel status id; the v3 API and
 * its tracking endpoint speak in codes and phases (`READY_TO_SEND`, `in_transit`). A status that is
 * none of ours ("being announced", "cancellation requested") maps to null: recorded, status kept.
 */
import type { ShipmentStatus } from '#shared/shipments/status';

/** Parcel status id (as in `parcel.status.id`) → our status; null keeps the previous one. */
export const SENDCLOUD_STATUS_IDS: Readonly<Record<number, ShipmentStatus | null>> = {
  999: null, // No label
  1001: null, // Being announced
  1000: 'label_created', // Ready to send
  1: 'label_created', // Announced
  13: 'label_created', // Announced: not collected
  22: 'in_transit', // Shipment picked up by driver
  3: 'in_transit', // En route to sorting center
  7: 'in_transit', // Being sorted
  5: 'in_transit', // Sorted
  91: 'in_transit', // Parcel en route
  62990: 'in_transit', // At sorting centre
  62989: 'in_transit', // At customs
  4: 'in_transit', // Delivery delayed
  62993: 'in_transit', // Delivery method changed
  62994: 'in_transit', // Delivery date changed
  62995: 'in_transit', // Delivery address changed
  92: 'out_for_delivery', // Driver en route
  12: 'out_for_delivery', // Awaiting customer pickup
  11: 'delivered', // Delivered
  93: 'delivered', // Shipment collected by customer
  8: 'exception', // Delivery attempt failed
  80: 'exception', // Unable to deliver
  6: 'exception', // Not sorted
  15: 'exception', // Error collecting
  1002: 'exception', // Announcement failed
  62996: 'exception', // Exception
  62997: 'exception', // Address invalid
  62991: 'exception', // Refused by recipient
  94: 'exception', // Parcel cancellation failed
  1337: 'exception', // Unknown
  62992: 'returned', // Returned to sender
  2000: 'cancelled', // Cancelled
  1998: 'cancelled', // Cancelled upstream
  1999: null, // Cancellation requested
  2001: null, // Submitting cancellation request
};

/**
 * v3 codes and phases (lower-cased; the announce answer's `status.code`, the tracking endpoint's
 * `status_code`, the event phases) → our status; null keeps the previous one.
 */
export const SENDCLOUD_STATUS_CODES: Readonly<Record<string, ShipmentStatus | null>> = {
  no_label: null,
  announcing: null,
  being_announced: null,
  none: null,
  unknown: null,
  cancellation_requested: null,
  announced: 'label_created',
  labelled: 'label_created',
  ready_to_send: 'label_created',
  accepted: 'in_transit',
  sorted: 'in_transit',
  in_transit: 'in_transit',
  customs: 'in_transit',
  dropped: 'in_transit',
  in_delivery: 'out_for_delivery',
  pup: 'out_for_delivery',
  delivered: 'delivered',
  delivery_forced: 'delivered',
  attempted: 'exception',
  exception: 'exception',
  announcement_failed: 'exception',
  returned: 'returned',
  returned_sender: 'returned',
  cancelled: 'cancelled',
  cancelled_upstream: 'cancelled',
};

/** Our status of a callback's numeric status id; unknown ids keep the previous status (null). */
export const statusOfId = (id: number): ShipmentStatus | null => SENDCLOUD_STATUS_IDS[id] ?? null;

/** Our status of a v3 code or phase (any case); unknown codes keep the previous status (null). */
export const statusOfCode = (code: string | null | undefined): ShipmentStatus | null =>
  code ? (SENDCLOUD_STATUS_CODES[code.trim().toLowerCase()] ?? null) : null;

/**
 * What shipments do to their order, decided from the order's shipping summary (one entry per
 * shipment: its status and the quantities of the order's lines it carries). Pure; the repository
 * writes the order's move in the transaction of the shipment change, conditional on the order's
 * status and version, so each milestone happens once whatever the order or repetition of callbacks.
 */
import type { OrderStatus } from '#shared/orders/status';
import { MOVING_STATUSES, type ShipmentStatus } from './status';

/** A shipment as its order's summary holds it; `creating` while the carrier is asked for its label. */
export type SummaryStatus = ShipmentStatus | 'creating';

export interface ShippedLine {
  line_id: number;
  quantity: number;
}

export interface ShipmentSummary {
  id: number;
  status: SummaryStatus;
  items: ShippedLine[];
}

/** Shipments that hold their items: all but cancelled ones. */
const holding = (summary: ShipmentSummary): boolean => summary.status !== 'cancelled';

/** Quantity per line id that the order's shipments (being created, or made and not cancelled) carry. */
export function shippedQuantities(summaries: readonly ShipmentSummary[]): Map<number, number> {
  const shipped = new Map<number, number>();
  for (const summary of summaries.filter(holding)) {
    for (const item of summary.items) shipped.set(item.line_id, (shipped.get(item.line_id) ?? 0) + item.quantity);
  }
  return shipped;
}

/** What of each line is left to ship (lines with nothing left are left out). */
export function remainingLines(lines: readonly { id: number; quantity: number }[], summaries: readonly ShipmentSummary[]): ShippedLine[] {
  const shipped = shippedQuantities(summaries);
  return lines
    .map((line) => ({ line_id: line.id, quantity: line.quantity - (shipped.get(line.id) ?? 0) }))
    .filter((line) => line.quantity > 0);
}

export interface Milestones {
  /** The order moves to `shipped` now (order.shipped). */
  ship: boolean;
  /** The order moves to `completed` now (order.completed). */
  complete: boolean;
}

/**
 * - **shipped**: the order is `ready` and one of its shipments has left (in transit, out for
 *   delivery or delivered). An order still `in_production` (a partial shipment) is not moved:
 *   production moves it to `ready` first, and its next shipment change ships it.
 * - **completed**: the order is `shipped` (or is shipped by this same change), nothing of its lines
 *   is left unshipped, and every shipment that is not cancelled is delivered.
 */
export function milestonesOf(
  orderStatus: OrderStatus,
  lines: readonly { id: number; quantity: number }[],
  summaries: readonly ShipmentSummary[],
): Milestones {
  const live = summaries.filter(holding);
  const ship = orderStatus === 'ready' && live.some((summary) => (MOVING_STATUSES as readonly string[]).includes(summary.status));
  const complete =
    (orderStatus === 'shipped' || ship) &&
    live.length > 0 &&
    live.every((summary) => summary.status === 'delivered') &&
    remainingLines(lines, summaries).length === 0;
  return { ship, complete };
}

/** The order's status after the milestones (unchanged when there are none). */
export const orderStatusAfter = (status: OrderStatus, milestones: Milestones): OrderStatus =>
  milestones.complete ? 'completed' : milestones.ship ? 'shipped' : status;

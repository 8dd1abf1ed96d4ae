/**
 * How the shop's states are shown, and which moves the panel offers. The transition tables are the
 * API's own (shared/orders/status.ts, shared/production/status.ts, shared/shipments/status.ts —
 * pure modules the panel imports as it imports the event catalogue): the panel offers only moves
 * the API allows, and the API stays the judge (its 409 is shown as it comes).
 * Every state has a label and a symbol as well as a colour tone.
 */
import type { InvoiceStatus, JobPriority, JobStatus, MachineStatus, OrderStatus, ShipmentStatus } from '../api/types';
import type { StatusView, Tone } from './delivery-status';
import { ORDER_STATUSES, TRANSITIONS as ORDER_TRANSITIONS } from '#shared/orders/status';
import { canMoveJob, needsMachine, nextJobStatuses } from '#shared/production/status';
import { SHIPMENT_STATUSES, SHIPMENT_TRANSITIONS } from '#shared/shipments/status';

export { canMoveJob, needsMachine, nextJobStatuses, ORDER_STATUSES, ORDER_TRANSITIONS, SHIPMENT_STATUSES, SHIPMENT_TRANSITIONS };

const view = (key: string, label: string, symbol: string, tone: Tone, description: string): StatusView => ({
  key,
  label,
  symbol,
  tone,
  description,
});

// ---- Orders --------------------------------------------------------------------------------------

const orderViews: Record<OrderStatus, StatusView> = {
  pending: view('pending', 'Pending', '…', 'info', 'Received; not confirmed yet.'),
  confirmed: view('confirmed', 'Confirmed', '✓', 'info', 'Confirmed: one production job per line is queued.'),
  in_production: view('in_production', 'In production', '⚙', 'warning', 'Its first job is printing.'),
  ready: view('ready', 'Ready', '■', 'success', 'Produced: ready to ship or to be picked up.'),
  shipped: view('shipped', 'Shipped', '➜', 'success', 'On its way to the customer.'),
  completed: view('completed', 'Completed', '✓', 'success', 'Delivered or picked up (final).'),
  cancelled: view('cancelled', 'Cancelled', '✕', 'neutral', 'Cancelled (final).'),
};

export const orderStatusView = (status: OrderStatus): StatusView => orderViews[status];

/** The label of the button that moves an order to `to`. */
export function orderActionLabel(from: OrderStatus, to: OrderStatus): string {
  switch (to) {
    case 'confirmed':
      return 'Confirm order';
    case 'in_production':
      return 'Mark in production';
    case 'ready':
      return 'Mark ready';
    case 'shipped':
      return 'Mark shipped';
    case 'completed':
      return from === 'ready' ? 'Complete (picked up)' : 'Complete';
    case 'cancelled':
      return 'Cancel order';
    default:
      return orderViews[to].label;
  }
}

export const isOrderStatus = (value: string): value is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(value);

// ---- Production jobs -----------------------------------------------------------------------------

/** The board's columns, in the order work flows; failed jobs get a column of their own when there are any. */
export const BOARD_COLUMNS: readonly JobStatus[] = ['queued', 'scheduled', 'printing', 'finishing', 'quality_check', 'on_hold'];

const jobViews: Record<JobStatus, StatusView> = {
  queued: view('queued', 'Queued', '…', 'info', 'Waiting to be scheduled on a machine.'),
  scheduled: view('scheduled', 'Scheduled', '◷', 'info', "In a machine's queue."),
  printing: view('printing', 'Printing', '▶', 'warning', 'Running on its machine.'),
  finishing: view('finishing', 'Finishing', '✂', 'warning', 'Cutting, folding, binding.'),
  quality_check: view('quality_check', 'Quality check', '◎', 'warning', 'Being checked before it is done.'),
  on_hold: view('on_hold', 'On hold', '‖', 'neutral', 'Paused; it returns to where it left.'),
  completed: view('completed', 'Completed', '✓', 'success', 'Done.'),
  failed: view('failed', 'Failed', '✕', 'danger', 'Failed: queue it again for a reprint, or cancel it.'),
  cancelled: view('cancelled', 'Cancelled', '–', 'neutral', 'Cancelled.'),
};

export const jobStatusView = (status: JobStatus): StatusView => jobViews[status];

/** The label of the button that moves a job from `from` to `to`. */
export function jobActionLabel(from: JobStatus, to: JobStatus): string {
  if (from === 'failed' && to === 'queued') return 'Reprint';
  if (from === 'on_hold') return `Resume (${jobViews[to].label.toLowerCase()})`;
  switch (to) {
    case 'scheduled':
      return 'Schedule';
    case 'printing':
      return 'Start printing';
    case 'finishing':
      return 'To finishing';
    case 'quality_check':
      return 'To quality check';
    case 'completed':
      return 'Complete';
    case 'on_hold':
      return 'Hold';
    case 'failed':
      return 'Failed';
    case 'cancelled':
      return 'Cancel job';
    default:
      return jobViews[to].label;
  }
}

export const PRIORITIES: readonly JobPriority[] = ['rush', 'high', 'normal', 'low'];
export const priorityLabel = (priority: JobPriority): string => ({ rush: 'Rush', high: 'High', normal: 'Normal', low: 'Low' })[priority];

/** A due date (YYYY-MM-DD, due through that day) is overdue once the day has passed (UTC, as the API counts). */
export function isOverdueDate(dueDate: string | null, now: number = Date.now()): boolean {
  if (!dueDate) return false;
  return dueDate < new Date(now).toISOString().slice(0, 10);
}

export const isJobStatus = (value: string): value is JobStatus => value in jobViews;

// ---- Machines ------------------------------------------------------------------------------------

const machineViews: Record<MachineStatus, StatusView> = {
  idle: view('idle', 'Idle', '○', 'neutral', 'Free: the next job can start.'),
  running: view('running', 'Running', '▶', 'success', 'A job is printing or finishing on it.'),
  maintenance: view('maintenance', 'Maintenance', '⚒', 'warning', 'No job can start until it is idle.'),
  offline: view('offline', 'Offline', '✕', 'danger', 'No job can start until it is idle.'),
};

export const machineStatusView = (status: MachineStatus): StatusView => machineViews[status];

/** `digital_press` → "Digital press". */
export const machineTypeLabel = (type: string): string => type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

// ---- Invoices ------------------------------------------------------------------------------------

const invoiceViews: Record<InvoiceStatus, StatusView> = {
  open: view('open', 'Open', '○', 'info', 'Issued; not sent yet.'),
  sent: view('sent', 'Sent', '✉', 'info', 'Emailed to the customer; awaiting payment.'),
  paid: view('paid', 'Paid', '✓', 'success', 'Paid in full (with any credit notes).'),
  credited: view('credited', 'Credited', '↺', 'neutral', 'Credited in full by credit notes: nothing is due.'),
  void: view('void', 'Void', '–', 'neutral', 'Voided: it no longer counts.'),
};

export function invoiceStatusView(invoice: { status: InvoiceStatus; overdue: boolean }): StatusView {
  if (invoice.overdue) return view('overdue', 'Overdue', '!', 'danger', 'Unpaid and past its due date.');
  return invoiceViews[invoice.status];
}

export const INVOICE_STATUSES: readonly InvoiceStatus[] = ['open', 'sent', 'paid', 'credited', 'void'];
export const isInvoiceStatus = (value: string): value is InvoiceStatus => (INVOICE_STATUSES as readonly string[]).includes(value);
export const invoiceStatusLabel = (status: InvoiceStatus): string => invoiceViews[status].label;

export const PAYMENT_METHODS = [
  ['bank_transfer', 'Bank transfer'],
  ['card', 'Card'],
  ['cash', 'Cash'],
  ['direct_debit', 'Direct debit'],
  ['paypal', 'PayPal'],
  ['cheque', 'Cheque'],
  ['other', 'Other'],
] as const;

// ---- Shipments -----------------------------------------------------------------------------------

const shipmentViews: Record<ShipmentStatus, StatusView> = {
  label_created: view('label_created', 'Label created', '▭', 'info', 'The label exists; the parcel has not left.'),
  in_transit: view('in_transit', 'In transit', '➜', 'warning', 'Picked up, on its way.'),
  out_for_delivery: view('out_for_delivery', 'Out for delivery', '⇢', 'warning', 'With the driver, or at a pickup point.'),
  delivered: view('delivered', 'Delivered', '✓', 'success', 'Delivered or collected (final).'),
  exception: view('exception', 'Exception', '!', 'danger', 'A problem: failed attempt, invalid address, refused…'),
  returned: view('returned', 'Returned', '↩', 'neutral', 'Back to the sender (final).'),
  cancelled: view('cancelled', 'Cancelled', '–', 'neutral', 'Cancelled before pickup (final).'),
};

export const shipmentStatusView = (status: ShipmentStatus): StatusView => shipmentViews[status];
export const isShipmentStatus = (value: string): value is ShipmentStatus => (SHIPMENT_STATUSES as readonly string[]).includes(value);

// ---- Money ---------------------------------------------------------------------------------------

/** `1.234,50 €`-style per locale; the API sends 2-decimal numbers and an ISO currency. */
export function formatMoney(amount: number, currency: string, locale = 'en-GB'): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** `2026-12-01` → `1 Dec 2026` (a calendar date: no time zone shift). */
export function formatDate(date: string | null, locale = 'en-GB'): string {
  if (!date) return '—';
  const parsed = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(parsed);
}

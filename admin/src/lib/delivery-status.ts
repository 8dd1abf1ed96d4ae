/**
 * How a delivery's state is shown. The API knows four statuses; the panel splits `pending` into
 * "Pending" (not tried yet) and "Retrying" (tried, failed, another attempt is scheduled), because
 * that is what a person looking at a failing receiver needs to see. Every status has a text label
 * and a symbol, so nothing depends on colour alone.
 */
import type { Delivery, DeliveryStatus } from '../api/types';

export type DisplayStatus = 'pending' | 'retrying' | 'succeeded' | 'failed' | 'skipped';
export type Tone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

export interface StatusView {
  /** The status shown (`data-status` in the page): a delivery's DisplayStatus, or an order, job, invoice or shipment status. */
  key: string;
  label: string;
  /** A symbol that carries the meaning without colour. */
  symbol: string;
  tone: Tone;
  /** One sentence for tooltips and the detail view. */
  description: string;
}

const views: Record<DisplayStatus, StatusView> = {
  succeeded: {
    key: 'succeeded',
    label: 'Succeeded',
    symbol: '✓',
    tone: 'success',
    description: 'The receiver answered with a 2xx status.',
  },
  retrying: {
    key: 'retrying',
    label: 'Retrying',
    symbol: '↻',
    tone: 'warning',
    description: 'The last attempt failed; another attempt is scheduled.',
  },
  pending: { key: 'pending', label: 'Pending', symbol: '…', tone: 'info', description: 'Queued; the next attempt is on its way.' },
  failed: {
    key: 'failed',
    label: 'Failed',
    symbol: '✕',
    tone: 'danger',
    description: 'Every attempt failed; no more retries. Resend it once the receiver is fixed.',
  },
  skipped: {
    key: 'skipped',
    label: 'Skipped',
    symbol: '–',
    tone: 'neutral',
    description: 'Not sent: the webhook was disabled or deleted when the delivery was due.',
  },
};

export function displayStatus(delivery: Pick<Delivery, 'status' | 'attempt_count'>): DisplayStatus {
  if (delivery.status === 'pending') return delivery.attempt_count > 0 ? 'retrying' : 'pending';
  return delivery.status;
}

export const statusView = (status: DisplayStatus): StatusView => views[status];

export const deliveryStatusView = (delivery: Pick<Delivery, 'status' | 'attempt_count'>): StatusView => views[displayStatus(delivery)];

/** Still moving: the list keeps refreshing itself while any of these is on screen. */
export const isInFlight = (delivery: Pick<Delivery, 'status'>): boolean => delivery.status === 'pending';

/** The filter offers the API's statuses; "pending" covers both pending and retrying. */
export const statusFilterOptions: { value: DeliveryStatus | ''; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'succeeded', label: 'Succeeded' },
  { value: 'pending', label: 'Pending or retrying' },
  { value: 'failed', label: 'Failed' },
  { value: 'skipped', label: 'Skipped' },
];

export const isDeliveryStatus = (value: string): value is DeliveryStatus =>
  value === 'pending' || value === 'succeeded' || value === 'failed' || value === 'skipped';

/** An HTTP status code as shown in tables: its tone and a short text (`—` when there was no answer). */
export function statusCodeView(code: number | null): { text: string; tone: Tone } {
  if (code === null) return { text: 'No response', tone: 'danger' };
  if (code >= 200 && code < 300) return { text: String(code), tone: 'success' };
  if (code >= 300 && code < 400) return { text: String(code), tone: 'warning' };
  return { text: String(code), tone: 'danger' };
}

/**
 * An order's events and its status history, from `GET /v1/events` (kept 30 days). The list has no
 * order filter, so the panel reads the account's events since the order was created (newest first,
 * a bounded number of pages) and keeps those about the order: the order itself, its jobs, its
 * invoices and its shipments. Pure: unit-tested.
 */
import type { ApiEvent, OrderStatus } from '../api/types';

type Data = Record<string, unknown>;
const record = (value: unknown): Data | undefined => (typeof value === 'object' && value !== null ? (value as Data) : undefined);

/** The order an event is about, or undefined. */
export function eventOrderId(event: Pick<ApiEvent, 'data'>): number | undefined {
  const data = event.data;
  const order = record(data.order);
  if (typeof order?.id === 'number') return order.id;
  for (const key of ['production_job', 'invoice', 'shipment']) {
    const resource = record(data[key]);
    if (typeof resource?.order_id === 'number') return resource.order_id;
  }
  return undefined;
}

export const isAboutOrder = (event: Pick<ApiEvent, 'data'>, orderId: number): boolean => eventOrderId(event) === orderId;

export interface StatusStep {
  status: OrderStatus;
  at: string;
  event: string;
}

/**
 * The order's states in time order, from `order.created` and every `order.updated` that changed the
 * status (events of one change share the order; repeats are dropped). `events` in any order.
 */
export function statusHistory(events: readonly Pick<ApiEvent, 'id' | 'type' | 'created_at' | 'data'>[]): StatusStep[] {
  const steps: StatusStep[] = [];
  const sorted = [...events].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const event of sorted) {
    if (event.type !== 'order.created' && event.type !== 'order.updated') continue;
    const status = record(event.data.order)?.status;
    if (typeof status !== 'string') continue;
    if (steps.at(-1)?.status === status) continue;
    steps.push({ status: status as OrderStatus, at: event.created_at, event: event.id });
  }
  return steps;
}

/** A one-line summary of an event for the order's timeline. */
export function describeEvent(event: Pick<ApiEvent, 'type' | 'data'>): string {
  const data = event.data;
  const order = record(data.order);
  const job = record(data.production_job);
  const invoice = record(data.invoice);
  const shipment = record(data.shipment);
  switch (event.type) {
    case 'order.created':
      return 'Order received';
    case 'order.updated':
      return `Order updated (status ${String(order?.status ?? '?').replace('_', ' ')})`;
    case 'order.shipped':
      return 'Order shipped';
    case 'order.completed':
      return 'Order completed';
    case 'order.cancelled':
      return 'Order cancelled';
    case 'production.job.created':
      return `Job ${String(job?.id ?? '?')} created: ${String(job?.description ?? '')}`;
    case 'production.job.completed':
      return `Job ${String(job?.id ?? '?')} completed`;
    case 'production.started':
      return 'Production started';
    case 'production.completed':
      return 'Production completed';
    case 'invoice.created':
      return `Invoice ${String(invoice?.invoice_number ?? '')} issued`;
    case 'invoice.sent':
      return `Invoice ${String(invoice?.invoice_number ?? '')} sent`;
    case 'invoice.paid':
      return `Invoice ${String(invoice?.invoice_number ?? '')} paid`;
    case 'shipment.delivered':
      return `Shipment ${String(shipment?.id ?? '')} delivered`;
    default:
      return event.type;
  }
}

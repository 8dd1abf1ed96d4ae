/**
 * The event catalogue: every kind the spec lists (union of its overview and webhook guide).
 * Which operation emits which kind is documented in docs/events.md.
 */
export const eventKinds = [
  'order.created',
  'order.updated',
  'order.completed',
  'order.cancelled',
  'order.shipped',
  'customer.created',
  'customer.updated',
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'quote.created',
  'quote.accepted',
  'quote.rejected',
  'production.started',
  'production.completed',
  'production.job.created',
  'production.job.completed',
  'shipment.delivered',
  'stock.low',
] as const;

export type EventKind = (typeof eventKinds)[number];

export const isEventKind = (value: string): value is EventKind => (eventKinds as readonly string[]).includes(value);

/** The resource type name under which each kind carries its resource in `data`. */
export const resourceTypeOf: Record<EventKind, string> = {
  'order.created': 'order',
  'order.updated': 'order',
  'order.completed': 'order',
  'order.cancelled': 'order',
  'order.shipped': 'order',
  'customer.created': 'customer',
  'customer.updated': 'customer',
  'invoice.created': 'invoice',
  'invoice.sent': 'invoice',
  'invoice.paid': 'invoice',
  'quote.created': 'quote',
  'quote.accepted': 'quote',
  'quote.rejected': 'quote',
  'production.started': 'production_job',
  'production.completed': 'production_job',
  'production.job.created': 'production_job',
  'production.job.completed': 'production_job',
  'shipment.delivered': 'shipment',
  'stock.low': 'product',
};

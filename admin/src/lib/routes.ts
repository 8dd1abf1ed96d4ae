/**
 * The panel's addresses, all under /admin (locally and on CloudFront), and the delivery filters
 * kept in the query string so that reloading or sharing a view keeps it. Never the API key.
 */
import type { DeliveryFilters, InvoiceFilters, OrderFilters } from '../api/types';
import { isDeliveryStatus } from './delivery-status';
import { isInvoiceStatus, isOrderStatus } from './shop-status';

export const BASE_PATH = '/admin';

export type Route =
  | { name: 'orders' }
  | { name: 'order'; id: number }
  | { name: 'production' }
  | { name: 'machines' }
  | { name: 'machine'; id: number }
  | { name: 'invoices' }
  | { name: 'invoice'; id: number }
  | { name: 'shipments' }
  | { name: 'shipment'; id: number }
  | { name: 'webhooks' }
  | { name: 'webhook-new' }
  | { name: 'webhook'; id: number }
  | { name: 'webhook-edit'; id: number }
  | { name: 'delivery'; id: number; deliveryId: string }
  | { name: 'not-found'; path: string };

const positiveId = (text: string): number | undefined => (/^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined);

export function parseRoute(pathname: string): Route {
  const inner = pathname.startsWith(BASE_PATH) ? pathname.slice(BASE_PATH.length) : pathname;
  const parts = inner.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return { name: 'orders' };
  const shop = parseShopRoute(parts);
  if (shop) return shop;
  if (parts[0] !== 'settings' || parts[1] !== 'webhooks') return { name: 'not-found', path: pathname };
  const [, , idText, section, deliveryId, ...rest] = parts;
  if (idText === undefined) return { name: 'webhooks' };
  if (idText === 'new' && section === undefined) return { name: 'webhook-new' };
  const id = positiveId(idText);
  if (id === undefined || rest.length > 0) return { name: 'not-found', path: pathname };
  if (section === undefined) return { name: 'webhook', id };
  if (section === 'edit' && deliveryId === undefined) return { name: 'webhook-edit', id };
  if (section === 'deliveries' && deliveryId) return { name: 'delivery', id, deliveryId };
  return { name: 'not-found', path: pathname };
}

/** The shop's day: orders, production (board, machines), invoices, shipments. */
function parseShopRoute(parts: string[]): Route | undefined {
  const [section, idText, more, ...rest] = parts;
  const list = { orders: 'orders', invoices: 'invoices', shipments: 'shipments' } as const;
  const one = { orders: 'order', invoices: 'invoice', shipments: 'shipment' } as const;
  if (section === 'orders' || section === 'invoices' || section === 'shipments') {
    if (idText === undefined) return { name: list[section] };
    const id = positiveId(idText);
    if (id === undefined || more !== undefined) return { name: 'not-found', path: `${BASE_PATH}/${parts.join('/')}` };
    return { name: one[section], id };
  }
  if (section === 'production') {
    if (idText === undefined) return { name: 'production' };
    if (idText !== 'machines' || rest.length > 0) return { name: 'not-found', path: `${BASE_PATH}/${parts.join('/')}` };
    if (more === undefined) return { name: 'machines' };
    const id = positiveId(more);
    return id === undefined ? { name: 'not-found', path: `${BASE_PATH}/${parts.join('/')}` } : { name: 'machine', id };
  }
  return undefined;
}

export function pathFor(route: Exclude<Route, { name: 'not-found' }>): string {
  const webhooks = `${BASE_PATH}/settings/webhooks`;
  switch (route.name) {
    case 'orders':
      return `${BASE_PATH}/orders`;
    case 'order':
      return `${BASE_PATH}/orders/${route.id}`;
    case 'production':
      return `${BASE_PATH}/production`;
    case 'machines':
      return `${BASE_PATH}/production/machines`;
    case 'machine':
      return `${BASE_PATH}/production/machines/${route.id}`;
    case 'invoices':
      return `${BASE_PATH}/invoices`;
    case 'invoice':
      return `${BASE_PATH}/invoices/${route.id}`;
    case 'shipments':
      return `${BASE_PATH}/shipments`;
    case 'shipment':
      return `${BASE_PATH}/shipments/${route.id}`;
    case 'webhooks':
      return webhooks;
    case 'webhook-new':
      return `${webhooks}/new`;
    case 'webhook':
      return `${webhooks}/${route.id}`;
    case 'webhook-edit':
      return `${webhooks}/${route.id}/edit`;
    case 'delivery':
      return `${webhooks}/${route.id}/deliveries/${encodeURIComponent(route.deliveryId)}`;
  }
}

export function parseDeliveryFilters(search: string): DeliveryFilters {
  const params = new URLSearchParams(search);
  const status = params.get('status') ?? '';
  const event = params.get('event') ?? '';
  const page = positiveId(params.get('page') ?? '') ?? 1;
  return { page, ...(isDeliveryStatus(status) ? { status } : {}), ...(event ? { event } : {}) };
}

export function deliveryFiltersQuery(filters: DeliveryFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.event) params.set('event', filters.event);
  if (filters.page > 1) params.set('page', String(filters.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

const calendarDay = (text: string | null): string | undefined =>
  text && /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ? text : undefined;

/** Order filters and the cursor, from the address (`?status=ready&customer=7&from=2026-11-01&to=…&after=120`). */
export function parseOrderFilters(search: string): OrderFilters {
  const params = new URLSearchParams(search);
  const status = params.get('status') ?? '';
  const customer = positiveId(params.get('customer') ?? '');
  const from = calendarDay(params.get('from'));
  const to = calendarDay(params.get('to'));
  const after = positiveId(params.get('after') ?? '');
  return {
    ...(isOrderStatus(status) ? { status } : {}),
    ...(customer !== undefined ? { customer_id: customer } : {}),
    ...(from ? { created_from: from } : {}),
    ...(to ? { created_to: to } : {}),
    ...(after !== undefined ? { after } : {}),
  };
}

export function orderFiltersQuery(filters: OrderFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.customer_id !== undefined) params.set('customer', String(filters.customer_id));
  if (filters.created_from) params.set('from', filters.created_from);
  if (filters.created_to) params.set('to', filters.created_to);
  if (filters.after !== undefined) params.set('after', String(filters.after));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Invoice filters from the address (`?status=sent&overdue=1&page=2`). */
export function parseInvoiceFilters(search: string): InvoiceFilters {
  const params = new URLSearchParams(search);
  const status = params.get('status') ?? '';
  const page = positiveId(params.get('page') ?? '') ?? 1;
  // The API combines `overdue` with no status filter (422): overdue wins.
  if (params.get('overdue') === '1') return { page, overdue: true };
  return { page, ...(isInvoiceStatus(status) ? { status } : {}) };
}

export function invoiceFiltersQuery(filters: InvoiceFilters): string {
  const params = new URLSearchParams();
  if (filters.status) params.set('status', filters.status);
  if (filters.overdue) params.set('overdue', '1');
  if (filters.page > 1) params.set('page', String(filters.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The panel's addresses, all under /admin (locally and on CloudFront), and the delivery filters
 * kept in the query string so that reloading or sharing a view keeps it. Never the API key.
 */
import type { DeliveryFilters } from '../api/types';
import { isDeliveryStatus } from './delivery-status';

export const BASE_PATH = '/admin';

export type Route =
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
  if (parts.length === 0) return { name: 'webhooks' };
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

export function pathFor(route: Exclude<Route, { name: 'not-found' }>): string {
  const webhooks = `${BASE_PATH}/settings/webhooks`;
  switch (route.name) {
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

/**
 * The route table: the single source of truth for endpoints. CDK builds API Gateway resources and
 * one function per route from it, the local gateway mounts the same handlers from it, handlers read
 * their required scopes from it, and the OpenAPI document is checked against it.
 *
 * This module is plain data on purpose: every handler bundle imports it.
 */
import type { Scope } from './auth/scopes';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  /** Stable id, `<group>.<operation>`; also the OpenAPI operationId. */
  id: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/v1/customers/{id}`. */
  path: string;
  /** Further paths served by the same handler (spec aliases). */
  aliases?: string[];
  /** Handler module relative to the project root; it exports `handler`. */
  handler: string;
  /** Scopes the caller needs (all of them). Empty: any valid key (only `account.get`), or `auth: 'none'`. */
  scopes: Scope[];
  /** `none` skips the authorizer (public documents). */
  auth: 'key' | 'none';
  /**
   * A storefront route: publishable keys (`pk_…`, shown in browsers) may call it, within their
   * scopes. Every other route refuses a publishable key with 403 `forbidden` before its scopes are
   * checked (shared/http/middleware/guard.ts), so a new route is closed to storefronts by default.
   */
  storefront?: true;
  /**
   * Function timeout in seconds when a route needs more than the default 10 (bulk imports). The
   * local gateway honours it; API Gateway ends the request after 29 s whatever the function does.
   */
  timeoutSeconds?: number;
}

/**
 * A route of the table below. Its `handler` is written as the module under `functions/` without
 * `.ts` (`orders/list` for `functions/orders/list.ts`): the table is in every bundle, and the
 * short spelling keeps about 0.6 KiB out of each. The definition holds the full path.
 */
const r = (route: Omit<RouteDefinition, 'auth'> & { auth?: RouteDefinition['auth'] }): RouteDefinition => ({
  auth: 'key',
  ...route,
  handler: `functions/${route.handler}.ts`,
});

export const routes: readonly RouteDefinition[] = [
  // Orders
  r({ id: 'orders.list', method: 'GET', path: '/v1/orders', handler: 'orders/list', scopes: ['orders:read'] }),
  r({ id: 'orders.create', method: 'POST', path: '/v1/orders', handler: 'orders/create', scopes: ['orders:write'] }),
  r({ id: 'orders.get', method: 'GET', path: '/v1/orders/{id}', handler: 'orders/get', scopes: ['orders:read'] }),
  r({ id: 'orders.update', method: 'PUT', path: '/v1/orders/{id}', handler: 'orders/update', scopes: ['orders:write'] }),

  // Customers
  r({ id: 'customers.list', method: 'GET', path: '/v1/customers', handler: 'customers/list', scopes: ['customers:read'] }),
  r({
    id: 'customers.create',
    method: 'POST',
    path: '/v1/customers',
    handler: 'customers/create',
    scopes: ['customers:write'],
  }),
  r({ id: 'customers.get', method: 'GET', path: '/v1/customers/{id}', handler: 'customers/get', scopes: ['customers:read'] }),
  r({
    id: 'customers.update',
    method: 'PUT',
    path: '/v1/customers/{id}',
    handler: 'customers/update',
    scopes: ['customers:write'],
  }),
  r({
    id: 'customers.delete',
    method: 'DELETE',
    path: '/v1/customers/{id}',
    handler: 'customers/delete',
    scopes: ['customers:write'],
  }),
  r({
    id: 'customers.orders',
    method: 'GET',
    path: '/v1/customers/{id}/orders',
    handler: 'customers/orders',
    scopes: ['customers:read', 'orders:read'],
  }),

  // Customer addresses
  r({
    id: 'addresses.list',
    method: 'GET',
    path: '/v1/customers/{id}/addresses',
    handler: 'customers/addresses/list',
    scopes: ['customers:read'],
  }),
  r({
    id: 'addresses.create',
    method: 'POST',
    path: '/v1/customers/{id}/addresses',
    handler: 'customers/addresses/create',
    scopes: ['customers:write'],
  }),
  r({
    id: 'addresses.get',
    method: 'GET',
    path: '/v1/customers/{id}/addresses/{addressId}',
    handler: 'customers/addresses/get',
    scopes: ['customers:read'],
  }),
  r({
    id: 'addresses.update',
    method: 'PUT',
    path: '/v1/customers/{id}/addresses/{addressId}',
    handler: 'customers/addresses/update',
    scopes: ['customers:write'],
  }),
  r({
    id: 'addresses.delete',
    method: 'DELETE',
    path: '/v1/customers/{id}/addresses/{addressId}',
    handler: 'customers/addresses/delete',
    scopes: ['customers:write'],
  }),

  // Products
  r({
    id: 'products.list',
    method: 'GET',
    path: '/v1/products',
    handler: 'products/list',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({ id: 'products.create', method: 'POST', path: '/v1/products', handler: 'products/create', scopes: ['products:write'] }),
  r({
    id: 'products.get',
    method: 'GET',
    path: '/v1/products/{id}',
    handler: 'products/get',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({
    id: 'products.update',
    method: 'PUT',
    path: '/v1/products/{id}',
    handler: 'products/update',
    scopes: ['products:write'],
  }),
  r({
    id: 'products.delete',
    method: 'DELETE',
    path: '/v1/products/{id}',
    handler: 'products/delete',
    scopes: ['products:write'],
  }),
  r({
    id: 'products.calculate',
    method: 'POST',
    path: '/v1/products/{id}/calculate',
    handler: 'products/calculate',
    scopes: ['products:read'],
    storefront: true,
  }),

  // Legacy products: the spec shows them without the /v1 prefix; both prefixes reach the same handlers.
  r({
    id: 'legacy-products.list',
    method: 'GET',
    path: '/v1/legacy-products',
    aliases: ['/legacy-products'],
    handler: 'legacy-products/list',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({
    id: 'legacy-products.create',
    method: 'POST',
    path: '/v1/legacy-products',
    aliases: ['/legacy-products'],
    handler: 'legacy-products/create',
    scopes: ['products:write'],
    timeoutSeconds: 120,
  }),
  r({
    id: 'legacy-products.get',
    method: 'GET',
    path: '/v1/legacy-products/{id}',
    aliases: ['/legacy-products/{id}'],
    handler: 'legacy-products/get',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({
    id: 'legacy-products.calculate',
    method: 'POST',
    path: '/v1/legacy-products/{id}/calculate',
    aliases: ['/legacy-products/{id}/calculate'],
    handler: 'legacy-products/calculate',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({
    id: 'legacy-products.prices',
    method: 'PUT',
    path: '/v1/legacy-products/{id}/prices',
    aliases: ['/legacy-products/{id}/prices'],
    handler: 'legacy-products/prices',
    scopes: ['products:write'],
    timeoutSeconds: 120,
  }),

  // The calling key's account (any valid key)
  r({ id: 'account.get', method: 'GET', path: '/v1/account', handler: 'account/get', scopes: [] }),

  // Audit log
  r({ id: 'audit.list', method: 'GET', path: '/v1/audit-logs', handler: 'audit-logs/list', scopes: ['audit:read'] }),

  // Events (the stored outbox events, kept 30 days). Handlers in functions/event-log/: functions/events/
  // holds the event pipeline's workers (stream router, delivery, dead letters), not API routes.
  r({ id: 'events.list', method: 'GET', path: '/v1/events', handler: 'event-log/list', scopes: ['events:read'] }),
  r({ id: 'events.get', method: 'GET', path: '/v1/events/{id}', handler: 'event-log/get', scopes: ['events:read'] }),

  // Webhooks
  r({ id: 'webhooks.list', method: 'GET', path: '/v1/webhooks', handler: 'webhooks/list', scopes: ['webhooks:read'] }),
  r({ id: 'webhooks.create', method: 'POST', path: '/v1/webhooks', handler: 'webhooks/create', scopes: ['webhooks:write'] }),
  r({ id: 'webhooks.get', method: 'GET', path: '/v1/webhooks/{id}', handler: 'webhooks/get', scopes: ['webhooks:read'] }),
  r({
    id: 'webhooks.update',
    method: 'PUT',
    path: '/v1/webhooks/{id}',
    handler: 'webhooks/update',
    scopes: ['webhooks:write'],
  }),
  r({
    id: 'webhooks.delete',
    method: 'DELETE',
    path: '/v1/webhooks/{id}',
    handler: 'webhooks/delete',
    scopes: ['webhooks:write'],
  }),
  r({
    id: 'webhooks.rotateSecret',
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate-secret',
    handler: 'webhooks/rotate-secret',
    scopes: ['webhooks:write'],
  }),
  r({
    id: 'webhooks.test',
    method: 'POST',
    path: '/v1/webhooks/{id}/test',
    aliases: ['/api/v1/webhooks/{id}/test'],
    handler: 'webhooks/test',
    scopes: ['webhooks:write'],
  }),
  r({
    id: 'webhooks.deliveries',
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    handler: 'webhooks/deliveries',
    scopes: ['webhooks:read'],
  }),
  r({
    id: 'webhooks.delivery',
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}',
    handler: 'webhooks/delivery',
    scopes: ['webhooks:read'],
  }),
  r({
    id: 'webhooks.redeliver',
    method: 'POST',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    handler: 'webhooks/redeliver',
    scopes: ['webhooks:write'],
  }),

  // Documents
  r({ id: 'openapi.get', method: 'GET', path: '/v1/openapi.json', handler: 'openapi/get', scopes: [], auth: 'none' }),
];

export const routesById: ReadonlyMap<string, RouteDefinition> = new Map(routes.map((route) => [route.id, route]));

export function routeById(id: string): RouteDefinition {
  const route = routesById.get(id);
  if (!route) throw new Error(`Unknown route id ${id}`);
  return route;
}

/** Every path a route answers on: its canonical path and its aliases. */
export function pathsOf(route: RouteDefinition): string[] {
  return [route.path, ...(route.aliases ?? [])];
}

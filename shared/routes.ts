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

const r = (route: Omit<RouteDefinition, 'auth'> & { auth?: RouteDefinition['auth'] }): RouteDefinition => ({
  auth: 'key',
  ...route,
});

export const routes: readonly RouteDefinition[] = [
  // Orders
  r({ id: 'orders.list', method: 'GET', path: '/v1/orders', handler: 'functions/orders/list.ts', scopes: ['orders:read'] }),
  r({ id: 'orders.create', method: 'POST', path: '/v1/orders', handler: 'functions/orders/create.ts', scopes: ['orders:write'] }),
  r({ id: 'orders.get', method: 'GET', path: '/v1/orders/{id}', handler: 'functions/orders/get.ts', scopes: ['orders:read'] }),
  r({ id: 'orders.update', method: 'PUT', path: '/v1/orders/{id}', handler: 'functions/orders/update.ts', scopes: ['orders:write'] }),

  // Customers
  r({ id: 'customers.list', method: 'GET', path: '/v1/customers', handler: 'functions/customers/list.ts', scopes: ['customers:read'] }),
  r({
    id: 'customers.create',
    method: 'POST',
    path: '/v1/customers',
    handler: 'functions/customers/create.ts',
    scopes: ['customers:write'],
  }),
  r({ id: 'customers.get', method: 'GET', path: '/v1/customers/{id}', handler: 'functions/customers/get.ts', scopes: ['customers:read'] }),
  r({
    id: 'customers.update',
    method: 'PUT',
    path: '/v1/customers/{id}',
    handler: 'functions/customers/update.ts',
    scopes: ['customers:write'],
  }),
  r({
    id: 'customers.delete',
    method: 'DELETE',
    path: '/v1/customers/{id}',
    handler: 'functions/customers/delete.ts',
    scopes: ['customers:write'],
  }),
  r({
    id: 'customers.orders',
    method: 'GET',
    path: '/v1/customers/{id}/orders',
    handler: 'functions/customers/orders.ts',
    scopes: ['customers:read', 'orders:read'],
  }),

  // Customer addresses
  r({
    id: 'addresses.list',
    method: 'GET',
    path: '/v1/customers/{id}/addresses',
    handler: 'functions/customers/addresses/list.ts',
    scopes: ['customers:read'],
  }),
  r({
    id: 'addresses.create',
    method: 'POST',
    path: '/v1/customers/{id}/addresses',
    handler: 'functions/customers/addresses/create.ts',
    scopes: ['customers:write'],
  }),
  r({
    id: 'addresses.get',
    method: 'GET',
    path: '/v1/customers/{id}/addresses/{addressId}',
    handler: 'functions/customers/addresses/get.ts',
    scopes: ['customers:read'],
  }),
  r({
    id: 'addresses.update',
    method: 'PUT',
    path: '/v1/customers/{id}/addresses/{addressId}',
    handler: 'functions/customers/addresses/update.ts',
    scopes: ['customers:write'],
  }),
  r({
    id: 'addresses.delete',
    method: 'DELETE',
    path: '/v1/customers/{id}/addresses/{addressId}',
    handler: 'functions/customers/addresses/delete.ts',
    scopes: ['customers:write'],
  }),

  // Products
  r({
    id: 'products.list',
    method: 'GET',
    path: '/v1/products',
    handler: 'functions/products/list.ts',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({ id: 'products.create', method: 'POST', path: '/v1/products', handler: 'functions/products/create.ts', scopes: ['products:write'] }),
  r({
    id: 'products.get',
    method: 'GET',
    path: '/v1/products/{id}',
    handler: 'functions/products/get.ts',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({
    id: 'products.update',
    method: 'PUT',
    path: '/v1/products/{id}',
    handler: 'functions/products/update.ts',
    scopes: ['products:write'],
  }),
  r({
    id: 'products.delete',
    method: 'DELETE',
    path: '/v1/products/{id}',
    handler: 'functions/products/delete.ts',
    scopes: ['products:write'],
  }),
  r({
    id: 'products.calculate',
    method: 'POST',
    path: '/v1/products/{id}/calculate',
    handler: 'functions/products/calculate.ts',
    scopes: ['products:read'],
    storefront: true,
  }),

  // Legacy products: the spec shows them without the /v1 prefix; both prefixes reach the same handlers.
  r({
    id: 'legacy-products.list',
    method: 'GET',
    path: '/v1/legacy-products',
    aliases: ['/legacy-products'],
    handler: 'functions/legacy-products/list.ts',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({
    id: 'legacy-products.create',
    method: 'POST',
    path: '/v1/legacy-products',
    aliases: ['/legacy-products'],
    handler: 'functions/legacy-products/create.ts',
    scopes: ['products:write'],
    timeoutSeconds: 120,
  }),
  r({
    id: 'legacy-products.get',
    method: 'GET',
    path: '/v1/legacy-products/{id}',
    aliases: ['/legacy-products/{id}'],
    handler: 'functions/legacy-products/get.ts',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({
    id: 'legacy-products.calculate',
    method: 'POST',
    path: '/v1/legacy-products/{id}/calculate',
    aliases: ['/legacy-products/{id}/calculate'],
    handler: 'functions/legacy-products/calculate.ts',
    scopes: ['products:read'],
    storefront: true,
  }),
  r({
    id: 'legacy-products.prices',
    method: 'PUT',
    path: '/v1/legacy-products/{id}/prices',
    aliases: ['/legacy-products/{id}/prices'],
    handler: 'functions/legacy-products/prices.ts',
    scopes: ['products:write'],
    timeoutSeconds: 120,
  }),

  // The calling key's account (any valid key)
  r({ id: 'account.get', method: 'GET', path: '/v1/account', handler: 'functions/account/get.ts', scopes: [] }),

  // Audit log
  r({ id: 'audit.list', method: 'GET', path: '/v1/audit-logs', handler: 'functions/audit-logs/list.ts', scopes: ['audit:read'] }),

  // Webhooks
  r({ id: 'webhooks.list', method: 'GET', path: '/v1/webhooks', handler: 'functions/webhooks/list.ts', scopes: ['webhooks:read'] }),
  r({ id: 'webhooks.create', method: 'POST', path: '/v1/webhooks', handler: 'functions/webhooks/create.ts', scopes: ['webhooks:write'] }),
  r({ id: 'webhooks.get', method: 'GET', path: '/v1/webhooks/{id}', handler: 'functions/webhooks/get.ts', scopes: ['webhooks:read'] }),
  r({
    id: 'webhooks.update',
    method: 'PUT',
    path: '/v1/webhooks/{id}',
    handler: 'functions/webhooks/update.ts',
    scopes: ['webhooks:write'],
  }),
  r({
    id: 'webhooks.delete',
    method: 'DELETE',
    path: '/v1/webhooks/{id}',
    handler: 'functions/webhooks/delete.ts',
    scopes: ['webhooks:write'],
  }),
  r({
    id: 'webhooks.rotateSecret',
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate-secret',
    handler: 'functions/webhooks/rotate-secret.ts',
    scopes: ['webhooks:write'],
  }),
  r({
    id: 'webhooks.test',
    method: 'POST',
    path: '/v1/webhooks/{id}/test',
    aliases: ['/api/v1/webhooks/{id}/test'],
    handler: 'functions/webhooks/test.ts',
    scopes: ['webhooks:write'],
  }),
  r({
    id: 'webhooks.deliveries',
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    handler: 'functions/webhooks/deliveries.ts',
    scopes: ['webhooks:read'],
  }),
  r({
    id: 'webhooks.delivery',
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}',
    handler: 'functions/webhooks/delivery.ts',
    scopes: ['webhooks:read'],
  }),
  r({
    id: 'webhooks.redeliver',
    method: 'POST',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    handler: 'functions/webhooks/redeliver.ts',
    scopes: ['webhooks:write'],
  }),

  // Documents
  r({ id: 'openapi.get', method: 'GET', path: '/v1/openapi.json', handler: 'functions/openapi/get.ts', scopes: [], auth: 'none' }),
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

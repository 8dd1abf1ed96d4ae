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
  summary: string;
  tag: string;
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
  // Customers
  r({ id: 'customers.list', method: 'GET', path: '/v1/customers', handler: 'functions/customers/list.ts', scopes: ['customers:read'], summary: 'List customers', tag: 'Customers' }),
  r({ id: 'customers.create', method: 'POST', path: '/v1/customers', handler: 'functions/customers/create.ts', scopes: ['customers:write'], summary: 'Create a customer', tag: 'Customers' }),
  r({ id: 'customers.get', method: 'GET', path: '/v1/customers/{id}', handler: 'functions/customers/get.ts', scopes: ['customers:read'], summary: 'Retrieve a customer', tag: 'Customers' }),
  r({ id: 'customers.update', method: 'PUT', path: '/v1/customers/{id}', handler: 'functions/customers/update.ts', scopes: ['customers:write'], summary: 'Update a customer', tag: 'Customers' }),
  r({ id: 'customers.delete', method: 'DELETE', path: '/v1/customers/{id}', handler: 'functions/customers/delete.ts', scopes: ['customers:write'], summary: 'Delete a customer', tag: 'Customers' }),
  r({ id: 'customers.orders', method: 'GET', path: '/v1/customers/{id}/orders', handler: 'functions/customers/orders.ts', scopes: ['customers:read', 'orders:read'], summary: "List a customer's orders", tag: 'Customers' }),

  // Customer addresses
  r({ id: 'addresses.list', method: 'GET', path: '/v1/customers/{id}/addresses', handler: 'functions/customers/addresses/list.ts', scopes: ['customers:read'], summary: "List a customer's addresses", tag: 'Addresses' }),
  r({ id: 'addresses.create', method: 'POST', path: '/v1/customers/{id}/addresses', handler: 'functions/customers/addresses/create.ts', scopes: ['customers:write'], summary: 'Add an address', tag: 'Addresses' }),
  r({ id: 'addresses.get', method: 'GET', path: '/v1/customers/{id}/addresses/{addressId}', handler: 'functions/customers/addresses/get.ts', scopes: ['customers:read'], summary: 'Retrieve an address', tag: 'Addresses' }),
  r({ id: 'addresses.update', method: 'PUT', path: '/v1/customers/{id}/addresses/{addressId}', handler: 'functions/customers/addresses/update.ts', scopes: ['customers:write'], summary: 'Update an address', tag: 'Addresses' }),
  r({ id: 'addresses.delete', method: 'DELETE', path: '/v1/customers/{id}/addresses/{addressId}', handler: 'functions/customers/addresses/delete.ts', scopes: ['customers:write'], summary: 'Delete an address', tag: 'Addresses' }),

  // Products
  r({ id: 'products.list', method: 'GET', path: '/v1/products', handler: 'functions/products/list.ts', scopes: ['products:read'], summary: 'List products', tag: 'Products' }),
  r({ id: 'products.create', method: 'POST', path: '/v1/products', handler: 'functions/products/create.ts', scopes: ['products:write'], summary: 'Create a product', tag: 'Products' }),
  r({ id: 'products.get', method: 'GET', path: '/v1/products/{id}', handler: 'functions/products/get.ts', scopes: ['products:read'], summary: 'Retrieve a product', tag: 'Products' }),
  r({ id: 'products.update', method: 'PUT', path: '/v1/products/{id}', handler: 'functions/products/update.ts', scopes: ['products:write'], summary: 'Update a product (also sets stock)', tag: 'Products' }),
  r({ id: 'products.delete', method: 'DELETE', path: '/v1/products/{id}', handler: 'functions/products/delete.ts', scopes: ['products:write'], summary: 'Delete a product, or archive it when orders reference it', tag: 'Products' }),
  r({ id: 'products.calculate', method: 'POST', path: '/v1/products/{id}/calculate', handler: 'functions/products/calculate.ts', scopes: ['products:read'], summary: 'Calculate the price for a quantity and options', tag: 'Products' }),

  // Legacy products: the spec shows them without the /v1 prefix; both prefixes reach the same handlers.
  r({ id: 'legacy-products.list', method: 'GET', path: '/v1/legacy-products', aliases: ['/legacy-products'], handler: 'functions/legacy-products/list.ts', scopes: ['products:read'], summary: 'List legacy products', tag: 'Legacy products' }),
  r({ id: 'legacy-products.create', method: 'POST', path: '/v1/legacy-products', aliases: ['/legacy-products'], handler: 'functions/legacy-products/create.ts', scopes: ['products:write'], summary: 'Create a legacy product (optionally with its price table)', tag: 'Legacy products', timeoutSeconds: 120 }),
  r({ id: 'legacy-products.get', method: 'GET', path: '/v1/legacy-products/{id}', aliases: ['/legacy-products/{id}'], handler: 'functions/legacy-products/get.ts', scopes: ['products:read'], summary: 'Retrieve a legacy product with all configuration options', tag: 'Legacy products' }),
  r({ id: 'legacy-products.calculate', method: 'POST', path: '/v1/legacy-products/{id}/calculate', aliases: ['/legacy-products/{id}/calculate'], handler: 'functions/legacy-products/calculate.ts', scopes: ['products:read'], summary: 'Price by lookup (format, color, quantity, pages)', tag: 'Legacy products' }),
  r({ id: 'legacy-products.prices', method: 'PUT', path: '/v1/legacy-products/{id}/prices', aliases: ['/legacy-products/{id}/prices'], handler: 'functions/legacy-products/prices.ts', scopes: ['products:write'], summary: 'Replace the price table from CSV', tag: 'Legacy products', timeoutSeconds: 120 }),

  // The calling key's account (any valid key)
  r({ id: 'account.get', method: 'GET', path: '/v1/account', handler: 'functions/account/get.ts', scopes: [], summary: "The calling key's account, mode and scopes", tag: 'Account' }),

  // Audit log
  r({ id: 'audit.list', method: 'GET', path: '/v1/audit-logs', handler: 'functions/audit-logs/list.ts', scopes: ['audit:read'], summary: "List the tenant's API calls", tag: 'Audit' }),

  // Webhooks
  r({ id: 'webhooks.list', method: 'GET', path: '/v1/webhooks', handler: 'functions/webhooks/list.ts', scopes: ['webhooks:read'], summary: 'List webhooks', tag: 'Webhooks' }),
  r({ id: 'webhooks.create', method: 'POST', path: '/v1/webhooks', handler: 'functions/webhooks/create.ts', scopes: ['webhooks:write'], summary: 'Register a webhook', tag: 'Webhooks' }),
  r({ id: 'webhooks.get', method: 'GET', path: '/v1/webhooks/{id}', handler: 'functions/webhooks/get.ts', scopes: ['webhooks:read'], summary: 'Retrieve a webhook', tag: 'Webhooks' }),
  r({ id: 'webhooks.update', method: 'PUT', path: '/v1/webhooks/{id}', handler: 'functions/webhooks/update.ts', scopes: ['webhooks:write'], summary: 'Update a webhook', tag: 'Webhooks' }),
  r({ id: 'webhooks.delete', method: 'DELETE', path: '/v1/webhooks/{id}', handler: 'functions/webhooks/delete.ts', scopes: ['webhooks:write'], summary: 'Delete a webhook', tag: 'Webhooks' }),
  r({ id: 'webhooks.rotateSecret', method: 'POST', path: '/v1/webhooks/{id}/rotate-secret', handler: 'functions/webhooks/rotate-secret.ts', scopes: ['webhooks:write'], summary: 'Rotate the signing secret', tag: 'Webhooks' }),
  r({ id: 'webhooks.test', method: 'POST', path: '/v1/webhooks/{id}/test', aliases: ['/api/v1/webhooks/{id}/test'], handler: 'functions/webhooks/test.ts', scopes: ['webhooks:write'], summary: 'Send a test event', tag: 'Webhooks' }),
  r({ id: 'webhooks.deliveries', method: 'GET', path: '/v1/webhooks/{id}/deliveries', handler: 'functions/webhooks/deliveries.ts', scopes: ['webhooks:read'], summary: "List a webhook's deliveries", tag: 'Webhooks' }),
  r({ id: 'webhooks.delivery', method: 'GET', path: '/v1/webhooks/{id}/deliveries/{deliveryId}', handler: 'functions/webhooks/delivery.ts', scopes: ['webhooks:read'], summary: 'Retrieve a delivery with its attempts', tag: 'Webhooks' }),
  r({ id: 'webhooks.redeliver', method: 'POST', path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', handler: 'functions/webhooks/redeliver.ts', scopes: ['webhooks:write'], summary: 'Send a delivery again', tag: 'Webhooks' }),

  // Documents
  r({ id: 'openapi.get', method: 'GET', path: '/v1/openapi.json', handler: 'functions/openapi/get.ts', scopes: [], auth: 'none', summary: 'The OpenAPI 3.0.3 document of this API', tag: 'Meta' }),
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

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

  // The calling key's account (any valid key)
  r({ id: 'account.get', method: 'GET', path: '/v1/account', handler: 'functions/account/get.ts', scopes: [], summary: "The calling key's account, mode and scopes", tag: 'Account' }),

  // Audit log
  r({ id: 'audit.list', method: 'GET', path: '/v1/audit-logs', handler: 'functions/audit-logs/list.ts', scopes: ['audit:read'], summary: "List the tenant's API calls", tag: 'Audit' }),

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

/** Helpers for the order integration tests: customers, products and orders over HTTP, stored events. */
import { expect } from 'vitest';
import type { Tenant } from '#shared/auth/principal';
import { call, uniqueEmail } from './http';
import { posterA2 } from '#test/support/products';
import { carried, storedEvents } from './store';

export async function newCustomer(key: string, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/customers', { key, body: { name: 'Anna Schmidt', email: uniqueEmail('orders'), ...overrides } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; name: string; email: string };
}

/** A simple product: 1.00 per piece, no tiers, no setup fee (or what `overrides` says). */
export async function newProduct(key: string, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/products', { key, body: posterA2(overrides) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; name: string; stock: { quantity: number } };
}

export async function newOrder(key: string, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/orders', { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

export const putOrder = (key: string, id: number, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call('PUT', `/v1/orders/${id}`, { key, body, headers });

export const stockOf = async (key: string, productId: number): Promise<number> =>
  (await call('GET', `/v1/products/${productId}`, { key })).body.data.stock.quantity;

/** Kinds of the events about one order, sorted by name (ids order events by millisecond only). */
export const orderEventKinds = async (tenant: Tenant, orderId: number): Promise<string[]> =>
  (await storedEvents(tenant))
    .filter((event) => carried(event, 'order')?.id === orderId)
    .map((event) => String(event.kind))
    .sort();

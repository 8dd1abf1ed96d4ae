/** Helpers for the order integration tests: customers, products and orders over HTTP, stored events. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import type { Tenant } from '../../shared/auth/principal';
import { dynamo } from '../../shared/clients/dynamodb';
import { getMany } from '../../shared/db/collections';
import { tenantKeys } from '../../shared/db/keys';
import { tableName } from '../../shared/db/table';
import { call, uniqueEmail } from './http';

export async function newCustomer(key: string, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/customers', { key, body: { name: 'Anna Schmidt', email: uniqueEmail('orders'), ...overrides } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; name: string; email: string };
}

/** A simple product: 1.00 per piece, no tiers, no setup fee (or what `overrides` says). */
export async function newProduct(key: string, overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/products', { key, body: { name: 'Poster A2', category: 'posters', base_price: 1, ...overrides } });
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

export const stockOf = async (key: string, productId: number): Promise<number> => (await call('GET', `/v1/products/${productId}`, { key })).body.data.stock.quantity;

/** All stored events of a tenant (use with a tenant of the test's own). */
export async function tenantEvents(tenant: Tenant): Promise<Record<string, any>[]> {
  const keys: { pk: string; sk: string }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': tenantKeys.eventsCollection(tenant) },
        ExclusiveStartKey: startKey,
      }),
    );
    keys.push(...(page.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const items: Record<string, any>[] = [];
  for (let i = 0; i < keys.length; i += 100) items.push(...(await getMany(keys.slice(i, i + 100))));
  return items;
}

/** Kinds of the events about one order, sorted by name (ids order events by millisecond only). */
export const orderEventKinds = async (tenant: Tenant, orderId: number): Promise<string[]> =>
  (await tenantEvents(tenant))
    .filter((event) => event.data?.order?.id === orderId)
    .map((event) => String(event.kind))
    .sort();

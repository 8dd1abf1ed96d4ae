/** Helpers for the webhook tests: registrations, delivery history (isolated accounts: test/support/shop.ts). */
import { expect, onTestFinished } from 'vitest';
import type { DataOf } from './api-types';
import { call, type Query } from './http';
import { eventually } from '#test/support/wait';

export { freshShop, type Shop } from './shop';

export async function register(key: string, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/webhooks', { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; secret: string; url: string; events: string[]; active: boolean };
}

/**
 * Registers a webhook for the running test only: it is deleted when the test finishes (when its
 * receiver closes, see test/support/receiver.ts), so later tests' events are never sent to a
 * closed receiver, and retried, while they wait for the delivery queues to drain.
 */
export async function registerForTest(key: string, body: Record<string, unknown>) {
  const webhook = await register(key, body);
  onTestFinished(async () => {
    await call('DELETE', `/v1/webhooks/${webhook.id}`, { key });
  });
  return webhook;
}

export async function deliveries(key: string, webhookId: number, query: Query = '') {
  const response = await call('GET', `/v1/webhooks/${webhookId}/deliveries${query}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** The delivery with its attempts, once `done` holds (the pipeline is asynchronous). */
export async function deliveryWhen(
  key: string,
  webhookId: number,
  deliveryId: string,
  done: (delivery: DataOf<'GET', '/v1/webhooks/{id}/deliveries/{deliveryId}'>) => boolean,
  timeoutMs = 15_000,
) {
  const delivery = await eventually(
    async () => (await call('GET', `/v1/webhooks/${webhookId}/deliveries/${deliveryId}`, { key })).body?.data,
    (value) => value !== undefined && done(value),
    timeoutMs,
  );
  expect(delivery, `delivery ${deliveryId}`).toBeDefined();
  return delivery;
}

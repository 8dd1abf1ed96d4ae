/** Helpers for the webhook tests: isolated accounts, registrations, delivery history. */
import { expect } from 'vitest';
import { createAccount, setPlan } from '#shared/accounts/service';
import { call } from './http';
import { eventually } from './receiver';

export interface Shop {
  accountId: string;
  secretTest: string;
  secretLive: string;
  tenant: { accountId: string; mode: 'test' };
}

/**
 * An account of its own, so that events other test files cause in the shared fixture account
 * never reach this file's receivers (and its registrations never count against theirs).
 */
export async function freshShop(name: string): Promise<Shop> {
  const created = await createAccount({ name, plan: 'enterprise' });
  await setPlan(created.account.id, 'enterprise', 1_000_000);
  return {
    accountId: created.account.id,
    secretTest: created.keys.secret_test.key,
    secretLive: created.keys.secret_live.key,
    tenant: { accountId: created.account.id, mode: 'test' },
  };
}

export async function register(key: string, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/webhooks', { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: number; secret: string; url: string; events: string[]; active: boolean };
}

export async function deliveries(key: string, webhookId: number, query = '') {
  const response = await call('GET', `/v1/webhooks/${webhookId}/deliveries${query}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { data: any[]; pagination: { total: number } };
}

/** The delivery with its attempts, once `done` holds (the pipeline is asynchronous). */
export async function deliveryWhen(key: string, webhookId: number, deliveryId: string, done: (delivery: any) => boolean, timeoutMs = 15_000) {
  const delivery = await eventually(
    async () => (await call('GET', `/v1/webhooks/${webhookId}/deliveries/${deliveryId}`, { key })).body?.data,
    (value) => value !== undefined && done(value),
    timeoutMs,
  );
  expect(delivery, `delivery ${deliveryId}`).toBeDefined();
  return delivery;
}

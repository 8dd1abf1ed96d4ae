/**
 * Shop fixtures shared by the integration tests: an account of the test's own (`freshShop`), an
 * order confirmed — its production jobs queued — (`confirmedOrder`) or produced to ready
 * (`readyOrder`), and the events a piece of work added to a tenant's outbox (`eventsOf`). Each
 * checks its own steps, so a test fails at the step that broke, not later.
 */
import { expect } from 'vitest';
import { createAccount, setPlan } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { call } from './http';
import { newOrder, putOrder } from './orders';
import { produceOrder } from './production';
import { storedEvents, type StoredEventItem } from './store';

export interface Shop {
  accountId: string;
  secretTest: string;
  secretLive: string;
  publishableTest: string;
  tenant: { accountId: string; mode: 'test' };
}

/**
 * An enterprise account of its own, with a rate limit no test meets (the rate-limit and allowlist
 * tests make accounts of the plans they test): events other test files cause in the shared fixture
 * accounts never reach this file's receivers, its registrations never count against theirs, and
 * its lists, totals and numbers start empty.
 */
export async function freshShop(name: string): Promise<Shop> {
  const created = await createAccount({ name, plan: 'enterprise' });
  await setPlan(created.account.id, 'enterprise', 1_000_000);
  return {
    accountId: created.account.id,
    secretTest: created.keys.secret_test.key,
    secretLive: created.keys.secret_live.key,
    publishableTest: created.keys.publishable_test.key,
    tenant: { accountId: created.account.id, mode: 'test' },
  };
}

/** A new order (`body` as `POST /v1/orders` takes it) confirmed: its production jobs are queued. The confirmation's answer. */
export async function confirmedOrder(key: string, body: Record<string, unknown>) {
  const order = await newOrder(key, body);
  const confirmed = await putOrder(key, order.id, { status: 'confirmed' });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return confirmed.body.data;
}

/** A new order confirmed and produced to ready, every job on a new machine (test/support/production.ts); the order as read then. */
export async function readyOrder(key: string, body: Record<string, unknown>) {
  const order = await confirmedOrder(key, body);
  await produceOrder(key, order.id);
  const ready = await call('GET', `/v1/orders/${order.id}`, { key });
  expect(ready.body.data?.status, JSON.stringify(ready.body)).toBe('ready');
  return ready.body.data;
}

/**
 * The events `work` added to `tenant`'s outbox, in stored order (read before and after, so the
 * tenant should be the test's own: a freshShop's).
 */
export async function eventsOf(tenant: Tenant, work: () => Promise<unknown>): Promise<StoredEventItem[]> {
  const seen = new Set((await storedEvents(tenant)).map((event) => event.event_id));
  await work();
  return (await storedEvents(tenant)).filter((event) => !seen.has(event.event_id));
}

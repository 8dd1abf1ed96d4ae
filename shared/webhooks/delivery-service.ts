/**
 * Delivery history, redelivery and test events for the API. The API never talks to SQS itself:
 * a redelivery and a test event are writes (a request item, an outbox event) whose stream insert
 * the router turns into a queue message, so they are as durable as any other event.
 */
import { eventKinds, isEventKind, type EventKind } from '#shared/events/catalogue';
import { readEvent } from '#shared/events/stored-event';
import { testEventPut } from '#shared/events/outbox';
import { buildPayload } from './payload';
import { sampleData } from './samples';
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, NotFoundError, VersionConflict } from '#shared/errors';
import { randomToken } from '#shared/ids';
import { insertTestEvent, listDeliveries, readDelivery, requestRedelivery } from './delivery-repository';
import { requireWebhook } from './repository';
import type { Delivery, DeliveryDetail, DeliveryListQuery } from './schema';
import { storedAttempt, storedDelivery, type DeliveryRecord, type WebhookRecord } from './stored';

/** Redelivery requests only need to live until the router has read them. */
const REQUEST_TTL_SECONDS = 24 * 3600;

/** A delivery as responses show it; `next_attempt_at` only while it is pending. */
export const presentDelivery = (record: DeliveryRecord): Delivery =>
  storedDelivery.view({ ...record, next_attempt_at: record.status === 'pending' ? record.next_attempt_at : null });

const inactive = () =>
  new ConflictError('This webhook is inactive; activate it (PUT with "active": true) to send deliveries', [
    { field: 'active', message: 'is false' },
  ]);

/** A page of the history: `total` counted up to a cap (`capped`), `next` the cursor of the following page. */
export interface DeliveryPage {
  items: Delivery[];
  total: number;
  capped: boolean;
  hasMore: boolean;
  next: string | undefined;
}

export async function listWebhookDeliveries(tenant: Tenant, webhookId: number, query: DeliveryListQuery): Promise<DeliveryPage> {
  await requireWebhook(tenant, webhookId);
  const page = { page: query.page, perPage: query.per_page, after: query.starting_after };
  const result = await listDeliveries(tenant, webhookId, { status: query.status, kind: query.event }, page);
  return { ...result, items: result.items.map(presentDelivery) };
}

/** A delivery of another registration is as unknown here as one that does not exist. */
async function requireDelivery(tenant: Tenant, webhookId: number, deliveryId: string) {
  await requireWebhook(tenant, webhookId);
  const delivery = await readDelivery(tenant, deliveryId);
  if (!delivery || delivery.webhook_id !== webhookId) throw new NotFoundError('delivery', deliveryId);
  return delivery;
}

export async function getWebhookDelivery(tenant: Tenant, webhookId: number, deliveryId: string): Promise<DeliveryDetail> {
  const delivery = await requireDelivery(tenant, webhookId, deliveryId);
  const event = await readEvent(tenant, delivery.event_id);
  const payload = event ? (JSON.parse(buildPayload(delivery.id, event)) as Record<string, unknown>) : null;
  return { ...presentDelivery(delivery), payload, attempts: delivery.attempts.map(storedAttempt.view) };
}

/** Sends the delivery again: same delivery id, the next attempt number, a fresh retry schedule. */
export async function redeliver(tenant: Tenant, webhookId: number, deliveryId: string): Promise<Delivery> {
  const webhook = await requireWebhook(tenant, webhookId);
  if (!webhook.active) throw inactive();
  return retryOnVersionConflict('delivery', async () => {
    const delivery = await requireDelivery(tenant, webhookId, deliveryId);
    const now = new Date().toISOString();
    const token = randomToken(16);
    const requested = await requestRedelivery(tenant, delivery, token, now, Math.floor(Date.now() / 1000) + REQUEST_TTL_SECONDS);
    if (!requested) throw new VersionConflict('delivery'); // an attempt or another redelivery changed it meanwhile
    return presentDelivery({ ...delivery, status: 'pending', token, chain_attempts: 0, next_attempt_at: null, updated_at: now });
  });
}

/** The kind a test sends by default: the first subscribed one in catalogue order. */
export function defaultTestKind(webhook: WebhookRecord): EventKind {
  if (webhook.events.includes('*')) return 'order.created';
  return eventKinds.find((kind) => webhook.events.includes(kind)) ?? 'order.created';
}

export async function sendTestEvent(tenant: Tenant, webhookId: number, kind?: string): Promise<void> {
  const webhook = await requireWebhook(tenant, webhookId);
  if (!webhook.active) throw inactive();
  const eventKind = kind !== undefined && isEventKind(kind) ? kind : defaultTestKind(webhook);
  const { item } = testEventPut(tenant, eventKind, sampleData(eventKind), webhookId);
  await insertTestEvent(item);
}

/**
 * The stream router: new outbox events → the tenant's active registrations subscribed to the
 * kind → one delivery item (`pending`) and one queue message per registration.
 *
 * Idempotent, so the stream's at-least-once delivery cannot duplicate anything: the delivery id
 * is derived from (event, registration) and created with `attribute_not_exists`. A replayed
 * record whose delivery is still pending is enqueued again under a new chain token (its earlier
 * message, if any, becomes stale and is dropped by the worker); finished deliveries are left
 * alone. Any failure throws, so the batch is retried (bisected on AWS) rather than skipped.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Tenant } from '../shared/auth/principal';
import { randomToken } from '../shared/ids';
import { logger } from '../shared/logger';
import { insertDelivery, readDelivery, rearmPending } from '../shared/webhooks/deliveries';
import { listWebhooks, readWebhook, type WebhookRecord } from '../shared/webhooks/repository';
import { deliveryIdFor } from './delivery-id';
import { eventFromItem, type StoredEvent } from './event-store';
import { deliveryMessage, sendDeliveryMessages, type DeliveryMessage } from './messages';

export const subscribes = (webhook: WebhookRecord, kind: string): boolean => webhook.events.includes('*') || webhook.events.includes(kind);

/** Who gets an event: a test event only its target (whatever it subscribes to), others the active subscribers. */
async function recipients(event: StoredEvent): Promise<WebhookRecord[]> {
  if (event.test) {
    const target = event.targetWebhookId === undefined ? undefined : await readWebhook(event.tenant, event.targetWebhookId);
    return target ? [target] : [];
  }
  return (await listWebhooks(event.tenant)).filter((webhook) => webhook.active && subscribes(webhook, event.kind));
}

/** The message to send for one (event, registration), or undefined when the delivery is already settled. */
async function prepareDelivery(event: StoredEvent, webhook: WebhookRecord): Promise<DeliveryMessage | undefined> {
  const tenant = event.tenant;
  const id = deliveryIdFor(event.eventId, tenant, webhook.id);
  const now = new Date().toISOString();
  const token = randomToken(16);
  const created = await insertDelivery(tenant, {
    id,
    webhookId: webhook.id,
    eventId: event.eventId,
    kind: event.kind,
    test: event.test,
    status: 'pending',
    token,
    chainAttempts: 0,
    attemptCount: 0,
    createdAt: now,
    updatedAt: now,
    expiresAt: event.expiresAt,
  });
  if (created) return deliveryMessage(tenant, webhook.id, id, token);
  const existing = await readDelivery(tenant, id);
  if (existing?.status !== 'pending') return undefined;
  return (await rearmPending(tenant, existing, token, now)) ? deliveryMessage(tenant, webhook.id, id, token) : undefined;
}

export async function routeEvent(event: StoredEvent): Promise<number> {
  const webhooks = await recipients(event);
  const messages = (await Promise.all(webhooks.map((webhook) => prepareDelivery(event, webhook)))).filter((message) => message !== undefined);
  await sendDeliveryMessages(messages);
  if (webhooks.length) logger.info('event routed', { event_id: event.eventId, kind: event.kind, webhooks: webhooks.length, enqueued: messages.length });
  return messages.length;
}

/** A redelivery request from the API: enqueue it if it is still the delivery's current chain. */
async function routeRedelivery(item: Record<string, unknown>): Promise<void> {
  if (item.mode !== 'test' && item.mode !== 'live') return;
  const tenant: Tenant = { accountId: String(item.account_id), mode: item.mode };
  const delivery = await readDelivery(tenant, String(item.delivery_id));
  if (!delivery || delivery.status !== 'pending' || delivery.token !== item.token) return;
  await sendDeliveryMessages([deliveryMessage(tenant, delivery.webhookId, delivery.id, delivery.token)]);
}

/** Records in stream order; the first failure aborts the batch so it is retried from there. */
export async function routeStreamRecords(records: DynamoDBRecord[]): Promise<void> {
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    if (item.entity === 'DELIVERY_REQUEST') {
      await routeRedelivery(item);
      continue;
    }
    const event = eventFromItem(item);
    if (event) await routeEvent(event);
  }
}

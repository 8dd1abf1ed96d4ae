/**
 * The stream router: new outbox events → the tenant's active registrations subscribed to the
 * kind → one delivery item (`pending`) and one queue message per registration.
 *
 * Idempotent, so the stream's at-least-once delivery cannot duplicate anything: the delivery id
 * is derived from (event, registration) and created with `attribute_not_exists` (the batch's
 * deliveries together, in as few transactions as possible: shared/db/conditional-writes.ts). A replayed
 * record whose delivery is still pending is enqueued again under a new chain token (its earlier
 * message, if any, becomes stale and is dropped by the worker); finished deliveries are left
 * alone. Any failure throws, so the batch is retried (bisected on AWS) rather than skipped.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Tenant } from '#shared/auth/principal';
import { randomToken } from '#shared/ids';
import { logger } from '#shared/logger';
import { writeConditionallyBatched } from '#shared/db/conditional-writes';
import { newDeliveryPut, readDelivery, rearmPending } from '#shared/webhooks/delivery-repository';
import { listWebhooks, readWebhook } from '#shared/webhooks/repository';
import { pendingDelivery, type DeliveryRecord, type WebhookRecord } from '#shared/webhooks/stored';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';
import { eventFromItem, type StoredEvent } from '#shared/events/stored-event';
import { forEachLimit } from '#shared/async/for-each-limit';
import { deliveryMessage, sendDeliveryMessages, type DeliveryMessage } from '#shared/webhooks/messages';

export const subscribes = (webhook: WebhookRecord, kind: string): boolean => webhook.events.includes('*') || webhook.events.includes(kind);

/** A new delivery of `event` to `webhook`: pending, on a fresh message chain. */
const newDelivery = (event: StoredEvent, webhook: WebhookRecord, now: string): DeliveryRecord =>
  pendingDelivery({
    id: deliveryIdFor(event.event_id, event.tenant, webhook.id),
    webhook_id: webhook.id,
    event_id: event.event_id,
    event: event.kind,
    test: event.test,
    token: randomToken(16),
    created_at: now,
    expires_at: event.expires_at,
  });

/**
 * A delivery that existed already (the event was routed before): enqueue it again under a new
 * chain if it is still pending — its earlier message may never have been sent — else nothing.
 */
async function rearmExisting(tenant: Tenant, id: string): Promise<string | undefined> {
  const existing = await readDelivery(tenant, id);
  if (existing?.status !== 'pending') return undefined;
  const token = randomToken(16);
  return (await rearmPending(tenant, existing, token, new Date().toISOString())) ? token : undefined;
}

/** Redelivery requests and already existing deliveries handled at once (each one read and one conditional write). */
const ROUTE_CONCURRENCY = 32;
/** SendMessageBatch takes at most 10 entries. */
const SQS_BATCH = 10;

/**
 * Registrations read once per stream batch: one Query per tenant (and one read per test target)
 * however many of the batch's events belong to it. Every event of the batch was committed before
 * the batch was read from the stream, so a registration created before an event's write is still
 * seen (what the consistent Query per event guaranteed before).
 */
function recipientReader(only?: (webhook: WebhookRecord) => boolean): (event: StoredEvent) => Promise<WebhookRecord[]> {
  const lists = new Map<string, Promise<WebhookRecord[]>>();
  const targets = new Map<string, Promise<WebhookRecord | undefined>>();
  const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> => {
    let value = cache.get(key);
    if (!value) cache.set(key, (value = read()));
    return value;
  };
  return async (event) => {
    const tenantKey = `${event.tenant.accountId}|${event.tenant.mode}`;
    // A test event goes to its target only (whatever it subscribes to), others to the active subscribers.
    if (event.test) {
      const targetId = event.target_webhook_id;
      if (targetId === null) return [];
      const target = await once(targets, `${tenantKey}|${targetId}`, () => readWebhook(event.tenant, targetId));
      return target ? [target] : [];
    }
    const all = await once(lists, tenantKey, () => listWebhooks(event.tenant));
    return all.filter((webhook) => webhook.active && subscribes(webhook, event.kind) && (!only || only(webhook)));
  };
}

/**
 * The batch's queue messages: sent in full SendMessageBatch calls as soon as 10 are ready (so the
 * first deliveries do not wait for the whole batch), the remainder by `finish`, which throws if
 * any send failed (the stream batch is then retried, and the router's idempotence re-enqueues).
 */
function messageSender() {
  const ready: DeliveryMessage[] = [];
  const sends: Promise<void>[] = [];
  let failure: { error: unknown } | undefined;
  const flush = (all: boolean) => {
    while (ready.length >= SQS_BATCH || (all && ready.length > 0)) {
      // The rejection is caught at once (an unobserved one would crash the process) and rethrown by finish().
      sends.push(sendDeliveryMessages(ready.splice(0, SQS_BATCH)).catch((error: unknown) => void (failure ??= { error })));
    }
  };
  return {
    add(message: DeliveryMessage) {
      ready.push(message);
      flush(false);
    },
    async finish() {
      flush(true);
      await Promise.all(sends);
      if (failure) throw failure.error;
    },
  };
}

/** A redelivery request from the API: enqueue it if it is still the delivery's current chain. */
async function routeRedelivery(item: Record<string, unknown>, send: (message: DeliveryMessage) => void): Promise<void> {
  if (item.mode !== 'test' && item.mode !== 'live') return;
  const tenant: Tenant = { accountId: String(item.account_id), mode: item.mode };
  const delivery = await readDelivery(tenant, String(item.delivery_id));
  if (!delivery || delivery.status !== 'pending' || delivery.token !== item.token) return;
  send(deliveryMessage(tenant, delivery.webhook_id, delivery.id, delivery.token, delivery.event_id));
}

/**
 * Routes one stream batch. Records are handled concurrently rather than one after the other:
 * deliveries are unordered by design (receivers sort on `timestamp`), every step is idempotent,
 * and a redelivery request always refers to a delivery routed in an earlier batch. Any failure
 * throws once everything started has settled, so the batch is retried (bisected on AWS) —
 * never skipped — and the retry re-creates nothing (see prepareDelivery).
 */
export async function routeStreamRecords(records: DynamoDBRecord[]): Promise<void> {
  const events: StoredEvent[] = [];
  const redeliveries: Record<string, unknown>[] = [];
  for (const record of records) {
    const image = record.dynamodb?.NewImage;
    if (record.eventName !== 'INSERT' || !image) continue;
    const item = unmarshall(image as Record<string, AttributeValue>);
    if (item.entity === 'DELIVERY_REQUEST') redeliveries.push(item);
    else {
      const event = eventFromItem(item);
      if (event) events.push(event);
    }
  }
  const sender = messageSender();
  // Both parts settle before anything is rethrown: nothing may still be adding messages then.
  const [redelivered, routed] = await Promise.allSettled([
    forEachLimit(redeliveries, ROUTE_CONCURRENCY, (item) => routeRedelivery(item, sender.add)),
    routeEvents(events, sender.add),
  ]);
  // Whatever was prepared goes out even if another part failed (fewer re-enqueues on the retry).
  await sender.finish();
  if (redelivered.status === 'rejected') throw redelivered.reason;
  if (routed.status === 'rejected') throw routed.reason;
  routed.value.forEach(({ webhooks, enqueued }, index) => {
    const event = events[index]!;
    if (webhooks) logger.info('event routed', { event_id: event.event_id, kind: event.kind, webhooks, enqueued });
  });
}

/** What routing did per (event, registration): a new delivery, a pending one re-enqueued, or one already finished left alone. */
export interface RoutingCounts {
  created: number;
  rearmed: number;
  finished: number;
}

/**
 * Routes stored events again (`npm run events -- replay`): exactly what the stream router does
 * with their inserts, so it is idempotent — a delivery that exists is never created twice, a
 * finished one (succeeded, failed, skipped) is left alone, a pending one is enqueued again under a
 * new chain (its older message, if any, is then dropped unsent). `only` narrows the recipients
 * (one registration). Throws if anything failed, after sending what was prepared: run it again.
 */
export async function rerouteEvents(events: StoredEvent[], only?: (webhook: WebhookRecord) => boolean): Promise<RoutingCounts> {
  const sender = messageSender();
  const routed = await Promise.allSettled([routeEvents(events, sender.add, only)]);
  await sender.finish();
  if (routed[0].status === 'rejected') throw routed[0].reason;
  return routed[0].value.reduce(
    (sum, counts) => ({
      created: sum.created + counts.created,
      rearmed: sum.rearmed + counts.rearmed,
      finished: sum.finished + counts.finished,
    }),
    { created: 0, rearmed: 0, finished: 0 },
  );
}

/**
 * Creates the deliveries of `events` and hands their messages to `send`; per event: recipients
 * and messages enqueued. The new deliveries are written together (a stream batch of 100 events
 * to 5 registrations is 5 transactions of 100 conditional Puts, not 500 calls); the few that
 * existed already are looked at one by one.
 */
async function routeEvents(
  events: StoredEvent[],
  send: (message: DeliveryMessage) => void,
  only?: (webhook: WebhookRecord) => boolean,
): Promise<({ webhooks: number; enqueued: number } & RoutingCounts)[]> {
  const recipientsOf = recipientReader(only);
  const recipients = await Promise.all(events.map(recipientsOf));
  const counts = recipients.map((webhooks) => ({ webhooks: webhooks.length, enqueued: 0, created: 0, rearmed: 0, finished: 0 }));
  const now = new Date().toISOString();
  const pairs = events.flatMap((event, index) =>
    recipients[index]!.map((webhook) => ({ index, event, webhook, delivery: newDelivery(event, webhook, now) })),
  );
  const created = await writeConditionallyBatched(pairs.map(({ event, delivery }) => [newDeliveryPut(event.tenant, delivery)]));
  const enqueue = (pair: (typeof pairs)[number], token: string) => {
    counts[pair.index]!.enqueued++;
    send(deliveryMessage(pair.event.tenant, pair.webhook.id, pair.delivery.id, token, pair.event.event_id));
  };
  pairs.forEach((pair, index) => {
    if (!created[index]) return;
    counts[pair.index]!.created++;
    enqueue(pair, pair.delivery.token);
  });
  await forEachLimit(
    pairs.filter((_, index) => !created[index]),
    ROUTE_CONCURRENCY,
    async (pair) => {
      const token = await rearmExisting(pair.event.tenant, pair.delivery.id);
      if (token) {
        counts[pair.index]!.rearmed++;
        enqueue(pair, token);
      } else counts[pair.index]!.finished++;
    },
  );
  return counts;
}

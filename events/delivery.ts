/**
 * One delivery attempt, driven by a queue message: check that the message is still the delivery's
 * current chain and that it is due, re-check the URL (SSRF), build and sign the body, POST it,
 * record the attempt, and say what should happen to the message:
 *
 * - `done`: delete it (succeeded, skipped, failed for good, stale duplicate, or moved to the DLQ);
 * - `retry`: keep it hidden for `visibilitySeconds` and report it as a batch item failure.
 *
 * Crashing anywhere leaves the message in the queue; it comes back after the queue's visibility
 * timeout and the attempt is made again (at-least-once, same delivery id).
 */
import type { Tenant } from '#shared/auth/principal';
import type { MessageOutcome } from '#shared/queues/partial-batch';
import { config } from '#shared/config';
import { logger } from '#shared/logger';
import { finishDelivery, readDelivery, recordAttempt } from '#shared/webhooks/delivery-repository';
import { deactivateWebhook, readWebhook } from '#shared/webhooks/repository';
import { withOpenSecrets } from '#shared/webhooks/secrets';
import type { AttemptRecord, DeliveryRecord, WebhookRecord } from '#shared/webhooks/stored';
import { readEvent, type StoredEvent } from '#shared/events/stored-event';
import { postWebhook, type PostOutcome } from '#shared/webhooks/http-post';
import { sendToDeadLetterQueue, tenantOf, type DeliveryMessage } from '#shared/webhooks/messages';
import { buildPayload, deliveryHeaders } from '#shared/webhooks/payload';
import { delayAfter, maxAttempts, retrySchedule, visibilityFor } from '#shared/webhooks/retry-schedule';
import { activeSecrets } from '#shared/webhooks/signing';
import { checkWebhookUrl, resolveTarget, UnsafeUrlError, type Lookup, type ResolvedTarget } from '#shared/webhooks/ssrf';

/** The spec: a receiver must answer within 10 seconds. DNS and connect count toward it. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A message may come back a little before its time (clock skew); that is close enough. */
const EARLY_TOLERANCE_MS = 1_000;

const done: MessageOutcome = { kind: 'done' };

/** Resolves, checks and POSTs; every failure (blocked address included) is an outcome, not an exception. */
async function attempt(
  webhook: WebhookRecord,
  body: string,
  headers: Record<string, string>,
  lookup: Lookup | undefined,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const policy = { localMode: config().localMode };
  let url: URL;
  let target: ResolvedTarget;
  try {
    url = checkWebhookUrl(webhook.url, policy);
    target = await resolveTarget(url, policy, { timeoutMs: DELIVERY_TIMEOUT_MS / 2, lookup });
  } catch (error) {
    const message = error instanceof UnsafeUrlError ? `refused: ${error.message}` : `DNS lookup failed: ${(error as Error).message}`;
    return { error: message, durationMs: elapsed() };
  }
  const outcome = await postWebhook(url, target, body, headers, Math.max(1, Math.ceil(DELIVERY_TIMEOUT_MS - elapsed())));
  return { ...outcome, durationMs: elapsed() };
}

/**
 * How a message reads the delivery, its registration and its event, and records its attempt. By
 * default one call each (directContext); the delivery handler gives the messages of one queue
 * batch a shared context (events/delivery-batch.ts) that batches those calls.
 */
export interface DeliveryContext {
  readDelivery(tenant: Tenant, id: string): Promise<DeliveryRecord | undefined>;
  readWebhook(tenant: Tenant, id: number): Promise<WebhookRecord | undefined>;
  readEvent(tenant: Tenant, eventId: string): Promise<StoredEvent | undefined>;
  recordAttempt: typeof recordAttempt;
  /** DNS for the SSRF re-check (default: the system resolver, asked every time); every address it returns is still checked. */
  lookup?: Lookup;
}

export const directContext: DeliveryContext = {
  readDelivery,
  readWebhook: (tenant, id) => readWebhook(tenant, id).then((webhook) => webhook && withOpenSecrets(tenant, webhook)), // stored sealed
  readEvent,
  recordAttempt,
};

const isSuccess = (outcome: PostOutcome) => outcome.statusCode !== undefined && outcome.statusCode >= 200 && outcome.statusCode < 300;

export async function processDeliveryMessage(
  message: DeliveryMessage,
  rawBody: string,
  now = new Date(),
  context: DeliveryContext = directContext,
): Promise<MessageOutcome> {
  const tenant = tenantOf(message);
  // The delivery and, as the message names them, its registration and event: all three in one
  // batched read (events/delivery-batch.ts). The delivery item decides; see below.
  const [delivery, namedWebhook, namedEvent] = await Promise.all([
    context.readDelivery(tenant, message.delivery_id),
    context.readWebhook(tenant, message.webhook_id),
    message.event_id === undefined ? undefined : context.readEvent(tenant, message.event_id),
  ]);
  // Deleted, finished, or superseded by a newer chain (router replay, redelivery): nothing to do.
  if (!delivery || delivery.status !== 'pending' || delivery.token !== message.token) return done;

  const dueIn = delivery.next_attempt_at ? Date.parse(delivery.next_attempt_at) - now.getTime() : 0;
  if (dueIn > EARLY_TOLERANCE_MS) return { kind: 'retry', visibilitySeconds: visibilityFor(dueIn / 1000) };

  const schedule = retrySchedule();
  if (delivery.chain_attempts >= maxAttempts(schedule)) return deadLetter(rawBody, delivery);

  const stamp = now.toISOString();
  // What the delivery item names; read again only when the message named something else (or, sent
  // before messages carried event_id, nothing).
  const [webhook, event] = await Promise.all([
    delivery.webhook_id === message.webhook_id ? namedWebhook : context.readWebhook(tenant, delivery.webhook_id),
    delivery.event_id === message.event_id ? namedEvent : context.readEvent(tenant, delivery.event_id),
  ]);
  if (!webhook || !webhook.active) {
    await finishDelivery(tenant, delivery, 'skipped', webhook ? 'webhook inactive' : 'webhook deleted', stamp, { token: delivery.token });
    return done;
  }
  if (!event) {
    await finishDelivery(tenant, delivery, 'failed', 'event expired before it could be delivered', stamp, { token: delivery.token });
    return done;
  }

  const body = buildPayload(delivery.id, event);
  const number = delivery.attempt_count + 1;
  const secrets = activeSecrets(webhook, now);
  const headers = deliveryHeaders({
    deliveryId: delivery.id,
    kind: event.kind,
    attempt: number,
    timestamp: Math.floor(now.getTime() / 1000),
    body,
    secrets,
  });
  const outcome = await attempt(webhook, body, headers, context.lookup);
  return settle(tenant, delivery, webhook, outcome, number, stamp, schedule, rawBody, context);
}

async function settle(
  tenant: Tenant,
  delivery: DeliveryRecord,
  webhook: WebhookRecord,
  outcome: PostOutcome,
  number: number,
  attemptedAt: string,
  schedule: readonly number[],
  rawBody: string,
  context: DeliveryContext,
): Promise<MessageOutcome> {
  const gone = outcome.statusCode === 410;
  const record: AttemptRecord = {
    attempt: number,
    attempted_at: attemptedAt,
    status_code: outcome.statusCode ?? null,
    duration_ms: outcome.durationMs,
    error: gone
      ? 'receiver answered 410 Gone; the webhook was deactivated'
      : (outcome.error ?? (isSuccess(outcome) ? null : `receiver answered ${outcome.statusCode}`)),
    response_body: outcome.responseBody ?? null,
  };
  const log = {
    delivery_id: delivery.id,
    webhook_id: webhook.id,
    attempt: number,
    status_code: outcome.statusCode,
    duration_ms: outcome.durationMs,
  };

  if (isSuccess(outcome) || gone) {
    if (gone) await deactivateWebhook(tenant, webhook.id, attemptedAt);
    await context.recordAttempt(tenant, delivery, record, { status: gone ? 'failed' : 'succeeded', next_attempt_at: null });
    logger.info(gone ? 'webhook gone, deactivated' : 'webhook delivered', log);
    return done;
  }
  const delay = delayAfter(schedule, delivery.chain_attempts + 1);
  const nextAttemptAt = delay === undefined ? null : new Date(Date.parse(attemptedAt) + delay * 1000).toISOString();
  const recorded = await context.recordAttempt(tenant, delivery, record, { status: 'pending', next_attempt_at: nextAttemptAt });
  logger.warn('webhook attempt failed', { ...log, error: record.error, next_attempt_at: nextAttemptAt });
  if (!recorded) return done; // another chain took over meanwhile
  if (delay === undefined) return deadLetter(rawBody, delivery);
  return { kind: 'retry', visibilitySeconds: visibilityFor(delay) };
}

/** After the last attempt: the message goes to the DLQ, whose handler marks the delivery failed. */
async function deadLetter(rawBody: string, delivery: DeliveryRecord): Promise<MessageOutcome> {
  await sendToDeadLetterQueue(rawBody, 'retry schedule exhausted');
  logger.warn('webhook delivery dead-lettered', { delivery_id: delivery.id, webhook_id: delivery.webhook_id });
  return done;
}

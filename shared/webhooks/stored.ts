/**
 * How webhook registrations and their deliveries are stored (see docs/data-model.md and
 * docs/webhooks.md). All registrations of a tenant share one partition, so the stream router
 * finds the subscribers of an event with one Query. A delivery is one item per (event,
 * registration) with its most recent attempts inside it, so one read gives a delivery with its
 * history and recording an attempt is one conditional write; history expires with its event.
 *
 * The secret must sign later, so a hash would not do: it is stored sealed with envelope encryption
 * (secrets.ts, shared/crypto/envelope.ts — a KMS-wrapped data key on AWS, a local key file under
 * the data folder locally), the previous one during a rotation too, and only the delivery worker
 * opens it. Reads show `secret_hint`. Registrations stored before sealing existed hold their
 * secret in plaintext until it is rotated or the operator seals it (seal-stored.ts); those are
 * read as they are.
 */
import type { Tenant } from '#shared/auth/principal';
import { deliverySortKey, webhookKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const storedWebhook = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    url: field(c.string),
    events: field(c.list(c.string)),
    active: field(c.boolean),
    description: field(c.nullable(c.string)),
    secret: field(c.string).describe(
      'The signing secret in full only in the answers to create and rotate-secret; elsewhere a hint such as whsec_…AbCd',
      'whsec_…AbCd',
    ),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().internal(),
    /** What reads show of the secret (`whsec_…AbCd`), kept apart so that no read has to open the secret. */
    secret_hint: field(c.nullable(c.string)).internal(),
    /** After a rotation the previous secret keeps signing until `previous_secret_expires_at` (sealed too). */
    previous_secret: field(c.nullable(c.string)).internal(),
    previous_secret_expires_at: field(c.nullable(c.string)).internal(),
  }))();

export type WebhookRecord = RecordOf<typeof storedWebhook.shape>;

/** One attempt of a delivery, as kept on the delivery and shown in its detail. */
export const storedAttempt = /* @__PURE__ */ (() =>
  c.object(
    {
      attempt: field(c.int),
      attempted_at: field(c.timestamp),
      status_code: field(c.nullable(c.int)),
      duration_ms: field(c.int),
      error: field(c.nullable(c.string)),
      response_body: field(c.nullable(c.string)).describe('The first 1024 characters of the answer'),
    },
    { id: 'WebhookDeliveryAttempt' },
  ))();

export type AttemptRecord = ReturnType<typeof storedAttempt.decode>;

export const storedDelivery = /* @__PURE__ */ (() =>
  entity({
    id: field(c.string).fixed().describe('Stays the same across retries and redeliveries', 'wh_0dYc3K2a8Xw1kZp4Qr7Tn2Lm'),
    webhook_id: field(c.int).fixed(),
    event_id: field(c.string).fixed(),
    /** The event kind (stored as `kind`, the name the index sort key also carries). */
    event: field(c.string).fixed().storedAs('kind'),
    test: field(c.boolean).fixed(),
    status: field(c.enumOf(DELIVERY_STATUSES)),
    attempt_count: field(c.int),
    last_attempt_at: field(c.nullable(c.timestamp)),
    next_attempt_at: field(c.nullable(c.timestamp)),
    last_status_code: field(c.nullable(c.int)),
    last_error: field(c.nullable(c.string)),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    /** The message chain this delivery expects (messages.ts): a message with another token is a stale duplicate. */
    token: field(c.string).internal(),
    /** Attempts in the current chain (a redelivery starts a new chain and a new retry schedule). */
    chain_attempts: field(c.int).internal(),
    /** The most recent attempts (MAX_KEPT_ATTEMPTS), oldest first. */
    attempts: field(c.list(storedAttempt)).internal(),
    /** Unix seconds; the delivery expires with its event. */
    expires_at: field(c.int).fixed().internal(),
  }))();

export type DeliveryRecord = RecordOf<typeof storedDelivery.shape>;

/** A new delivery: pending, nothing attempted yet, on the message chain `token`. */
export const pendingDelivery = (
  delivery: Pick<DeliveryRecord, 'id' | 'webhook_id' | 'event_id' | 'event' | 'test' | 'token' | 'created_at' | 'expires_at'>,
): DeliveryRecord => ({
  ...delivery,
  status: 'pending',
  attempt_count: 0,
  last_attempt_at: null,
  next_attempt_at: null,
  last_status_code: null,
  last_error: null,
  updated_at: delivery.created_at,
  chain_attempts: 0,
  attempts: [],
});

export const webhookFromItem: typeof storedWebhook.read = (value) => storedWebhook.read(value);
export const deliveryFromItem: typeof storedDelivery.read = (value) => storedDelivery.read(value);

export const WEBHOOKS = 'webhooks';

export function webhookPut(tenant: Tenant, record: WebhookRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...webhookKeys.webhook(tenant, record.id), entity: 'WEBHOOK', ...storedWebhook.attributes(record, 'put') },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The conditional Put that creates a delivery unless it exists already (a replayed stream record). */
export function deliveryPut(tenant: Tenant, delivery: DeliveryRecord): TransactItem {
  const sortKey = deliverySortKey(delivery.id, delivery.event);
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...webhookKeys.delivery(tenant, delivery.id),
        entity: 'DELIVERY',
        ...storedDelivery.attributes(delivery, 'put'),
        gsi1pk: webhookKeys.webhookDeliveries(tenant, delivery.webhook_id),
        gsi1sk: sortKey,
        gsi2pk: webhookKeys.webhookDeliveriesByStatus(tenant, delivery.webhook_id, delivery.status),
        gsi2sk: sortKey,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

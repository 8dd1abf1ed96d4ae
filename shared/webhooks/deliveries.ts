/**
 * Delivery records: one item per (event, registration), its attempts inside it (the most recent
 * MAX_KEPT_ATTEMPTS), so one read gives a delivery with its history and recording an attempt is one
 * conditional write. Every state change is conditional on the status being `pending` and on the
 * message chain (`token`) the item expects, so a superseded duplicate message can never
 * overwrite a newer outcome; an attempt is also conditional on the attempt count it follows, so
 * two copies of one message cannot both record theirs. History expires with its event (same TTL).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { writeConditionally } from '#shared/db/conditional-writes';
import { deliverySortKey, tenantKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { MAX_KEPT_ATTEMPTS } from './limits';
import type { DeliveryStatus } from './schema';

export { MAX_KEPT_ATTEMPTS };

export interface DeliveryRecord {
  id: string;
  webhookId: number;
  eventId: string;
  kind: string;
  test: boolean;
  status: DeliveryStatus;
  /** The message chain this delivery expects (see messages.ts). */
  token: string;
  /** Attempts in the current chain (a redelivery starts a new chain and a new retry schedule). */
  chainAttempts: number;
  attemptCount: number;
  createdAt: string;
  updatedAt: string;
  lastAttemptAt?: string;
  nextAttemptAt?: string;
  lastStatusCode?: number;
  lastError?: string;
  expiresAt: number;
  /** The most recent attempts, oldest first. */
  attempts: AttemptRecord[];
}

export interface AttemptRecord {
  attempt: number;
  attemptedAt: string;
  statusCode?: number;
  durationMs: number;
  error?: string;
  responseBody?: string;
}

type Item = Record<string, unknown>;
const optional = <T>(value: unknown, cast: (value: unknown) => T): T | undefined => (value === undefined || value === null ? undefined : cast(value));

export function deliveryFromItem(item: Item): DeliveryRecord {
  return {
    id: String(item.id),
    webhookId: Number(item.webhook_id),
    eventId: String(item.event_id),
    kind: String(item.kind),
    test: item.test === true,
    status: item.status as DeliveryStatus,
    token: String(item.token),
    chainAttempts: Number(item.chain_attempts ?? 0),
    attemptCount: Number(item.attempt_count ?? 0),
    createdAt: String(item.created_at),
    updatedAt: String(item.updated_at),
    lastAttemptAt: optional(item.last_attempt_at, String),
    nextAttemptAt: optional(item.next_attempt_at, String),
    lastStatusCode: optional(item.last_status_code, Number),
    lastError: optional(item.last_error, String),
    expiresAt: Number(item.expires_at),
    attempts: Array.isArray(item.attempts) ? (item.attempts as Item[]).map(attemptFromItem) : [],
  };
}

export function attemptFromItem(item: Item): AttemptRecord {
  return {
    attempt: Number(item.attempt),
    attemptedAt: String(item.attempted_at),
    statusCode: optional(item.status_code, Number),
    durationMs: Number(item.duration_ms),
    error: optional(item.error, String),
    responseBody: optional(item.response_body, String),
  };
}

/** The conditional Put that creates a delivery unless it exists already (a replayed stream record). */
export function deliveryPut(tenant: Tenant, delivery: DeliveryRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...tenantKeys.delivery(tenant, delivery.id),
        entity: 'DELIVERY',
        id: delivery.id,
        webhook_id: delivery.webhookId,
        event_id: delivery.eventId,
        kind: delivery.kind,
        test: delivery.test,
        status: delivery.status,
        token: delivery.token,
        chain_attempts: 0,
        attempt_count: 0,
        attempts: [],
        created_at: delivery.createdAt,
        updated_at: delivery.updatedAt,
        expires_at: delivery.expiresAt,
        gsi1pk: tenantKeys.webhookDeliveries(tenant, delivery.webhookId),
        gsi1sk: deliverySortKey(delivery.id, delivery.kind),
        gsi2pk: tenantKeys.webhookDeliveriesByStatus(tenant, delivery.webhookId, delivery.status),
        gsi2sk: deliverySortKey(delivery.id, delivery.kind),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Creates the delivery unless it exists already: true when created. */
export const insertDelivery = (tenant: Tenant, delivery: DeliveryRecord): Promise<boolean> => writeConditionally([deliveryPut(tenant, delivery)]);

export async function readDelivery(tenant: Tenant, id: string): Promise<DeliveryRecord | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.delivery(tenant, id), ConsistentRead: true }));
  return result.Item ? deliveryFromItem(result.Item) : undefined;
}

/** SET/REMOVE pairs for the delivery item; undefined values are removed. */
function setOrRemove(fields: Record<string, unknown>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  Object.entries(fields).forEach(([field, value], i) => {
    names[`#u${i}`] = field;
    if (value === undefined) removes.push(`#u${i}`);
    else {
      values[`:u${i}`] = value;
      sets.push(`#u${i} = :u${i}`);
    }
  });
  return { names, values, sets, removes };
}

/** An Update of the delivery that only applies while it is pending on `token` (or, without a token, pending at all). */
function deliveryUpdate(
  tenant: Tenant,
  delivery: DeliveryRecord,
  fields: Record<string, unknown>,
  options: { token?: string; attemptCount?: number; requirePending?: boolean } = {},
): TransactItem {
  const { names, values, sets, removes } = setOrRemove(fields);
  const conditions = ['attribute_exists(pk)'];
  if (options.requirePending !== false) {
    conditions.push('#status = :pending');
    names['#status'] = 'status';
    values[':pending'] = 'pending';
  }
  if (options.token !== undefined) {
    conditions.push('#token = :token');
    names['#token'] = 'token';
    values[':token'] = options.token;
  }
  if (options.attemptCount !== undefined) {
    conditions.push('#count = :count');
    names['#count'] = 'attempt_count';
    values[':count'] = options.attemptCount;
  }
  const expression = [`SET ${sets.join(', ')}`, removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  return {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.delivery(tenant, delivery.id),
      UpdateExpression: expression,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

const statusFields = (tenant: Tenant, delivery: DeliveryRecord, status: DeliveryStatus, now: string) => ({
  status,
  updated_at: now,
  gsi2pk: tenantKeys.webhookDeliveriesByStatus(tenant, delivery.webhookId, status),
});

/** Points a pending delivery at a new message chain (the router re-enqueues a replayed event). */
export function rearmPending(tenant: Tenant, delivery: DeliveryRecord, token: string, now: string): Promise<boolean> {
  return writeConditionally([deliveryUpdate(tenant, delivery, { token, updated_at: now }, { token: delivery.token })]);
}

/**
 * A redelivery: back to pending with a new chain and a fresh retry schedule, plus a request item
 * whose stream insert makes the router enqueue it — in one transaction, so a crash cannot leave a
 * pending delivery without a message on its way.
 */
export function requestRedelivery(tenant: Tenant, delivery: DeliveryRecord, token: string, now: string, requestExpiresAt: number): Promise<boolean> {
  return writeConditionally([
    deliveryUpdate(tenant, delivery, { ...statusFields(tenant, delivery, 'pending', now), token, chain_attempts: 0, next_attempt_at: undefined }, { requirePending: false }),
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...tenantKeys.deliveryRequest(tenant, delivery.id, token),
          entity: 'DELIVERY_REQUEST',
          account_id: tenant.accountId,
          mode: tenant.mode,
          delivery_id: delivery.id,
          webhook_id: delivery.webhookId,
          token,
          created_at: now,
          expires_at: requestExpiresAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
}

export interface AttemptOutcome {
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt?: string;
}

const attemptItem = (attempt: AttemptRecord) => ({
  attempt: attempt.attempt,
  attempted_at: attempt.attemptedAt,
  status_code: attempt.statusCode,
  duration_ms: attempt.durationMs,
  error: attempt.error,
  response_body: attempt.responseBody,
});

/**
 * The delivery's conditional update for one attempt: its outcome, and the attempt appended to the
 * kept history (the whole list is written: it is already in the item's size, and the condition on
 * the attempt count guarantees it is the list the worker read).
 */
export function attemptUpdate(tenant: Tenant, delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome): TransactItem {
  const kept = [...delivery.attempts, attempt].slice(-MAX_KEPT_ATTEMPTS);
  return deliveryUpdate(
    tenant,
    delivery,
    {
      ...statusFields(tenant, delivery, outcome.status, attempt.attemptedAt),
      attempt_count: attempt.attempt,
      chain_attempts: delivery.chainAttempts + 1,
      last_attempt_at: attempt.attemptedAt,
      last_status_code: attempt.statusCode,
      last_error: attempt.error,
      next_attempt_at: outcome.nextAttemptAt,
      attempts: kept.map(attemptItem),
    },
    { token: delivery.token, attemptCount: delivery.attemptCount },
  );
}

/** Records an attempt and its consequence together; false when another chain (or a copy of this message) took over meanwhile. */
export function recordAttempt(tenant: Tenant, delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<boolean> {
  return writeConditionally([attemptUpdate(tenant, delivery, attempt, outcome)]);
}

/** Ends a pending delivery without an attempt: `skipped` (registration gone or paused) or `failed` (dead-lettered, event expired). */
export function finishDelivery(
  tenant: Tenant,
  delivery: DeliveryRecord,
  status: 'skipped' | 'failed',
  reason: string,
  now: string,
  options: { token?: string; deadLettered?: boolean } = {},
): Promise<boolean> {
  const fields = {
    ...statusFields(tenant, delivery, status, now),
    last_error: reason,
    next_attempt_at: undefined,
    ...(options.deadLettered ? { dead_lettered_at: now } : {}),
  };
  return writeConditionally([deliveryUpdate(tenant, delivery, fields, { token: options.token })]);
}

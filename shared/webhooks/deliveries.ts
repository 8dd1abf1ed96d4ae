/**
 * Delivery records: one item per (event, registration) with its attempts in the same partition
 * (one Query reads a delivery with its history). Every state change is conditional on the status
 * being `pending` and on the message chain (`token`) the item expects, so a superseded duplicate
 * message can never overwrite a newer outcome. History expires with its event (same TTL).
 */
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../auth/principal';
import { dynamo } from '../clients/dynamodb';
import { deliverySortKey, tenantKeys, type ItemKey } from '../db/keys';
import { isConditionFailure, isTransactionCanceled, tableName, transactWrite, type TransactItem } from '../db/table';
import type { DeliveryStatus } from './schema';

export interface DeliveryRecord {
  id: string;
  webhookId: number;
  eventId: string;
  kind: string;
  test: boolean;
  status: DeliveryStatus;
  /** The message chain this delivery expects (see events/messages.ts). */
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

/** Creates the delivery unless it exists already (a replayed stream record): true when created. */
export async function insertDelivery(tenant: Tenant, delivery: DeliveryRecord): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
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
          created_at: delivery.createdAt,
          updated_at: delivery.updatedAt,
          expires_at: delivery.expiresAt,
          gsi1pk: tenantKeys.webhookDeliveries(tenant, delivery.webhookId),
          gsi1sk: deliverySortKey(delivery.id, delivery.kind),
          gsi2pk: tenantKeys.webhookDeliveriesByStatus(tenant, delivery.webhookId, delivery.status),
          gsi2sk: deliverySortKey(delivery.id, delivery.kind),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function readDelivery(tenant: Tenant, id: string): Promise<DeliveryRecord | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.delivery(tenant, id), ConsistentRead: true }));
  return result.Item ? deliveryFromItem(result.Item) : undefined;
}

/** The delivery and its attempts (oldest first) with one Query over its partition. */
export async function readDeliveryWithAttempts(tenant: Tenant, id: string): Promise<{ delivery: DeliveryRecord; attempts: AttemptRecord[] } | undefined> {
  const key = tenantKeys.delivery(tenant, id);
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': key.pk }, ExclusiveStartKey: startKey }),
    );
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  const deliveryItem = items.find((item) => item.sk === key.sk);
  if (!deliveryItem) return undefined;
  const attempts = items.filter((item) => String(item.sk).startsWith(tenantKeys.deliveryAttemptPrefix)).map(attemptFromItem);
  return { delivery: deliveryFromItem(deliveryItem), attempts };
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
function deliveryUpdate(tenant: Tenant, delivery: DeliveryRecord, fields: Record<string, unknown>, options: { token?: string; extraSet?: string[]; requirePending?: boolean } = {}): TransactItem {
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
  const expression = [`SET ${[...sets, ...(options.extraSet ?? [])].join(', ')}`, removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
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

/** Runs one conditional write; false when the delivery was no longer in the expected state. */
async function conditional(items: TransactItem[]): Promise<boolean> {
  try {
    if (items.length === 1) await dynamo().send(new UpdateCommand(items[0]!.Update as never));
    else await transactWrite(items, () => new StaleDelivery());
    return true;
  } catch (error) {
    if (error instanceof StaleDelivery || isConditionFailure(error)) return false;
    throw error;
  }
}

class StaleDelivery extends Error {}

/** Points a pending delivery at a new message chain (the router re-enqueues a replayed event). */
export function rearmPending(tenant: Tenant, delivery: DeliveryRecord, token: string, now: string): Promise<boolean> {
  return conditional([deliveryUpdate(tenant, delivery, { token, updated_at: now }, { token: delivery.token })]);
}

/**
 * A redelivery: back to pending with a new chain and a fresh retry schedule, plus a request item
 * whose stream insert makes the router enqueue it — in one transaction, so a crash cannot leave a
 * pending delivery without a message on its way.
 */
export function requestRedelivery(tenant: Tenant, delivery: DeliveryRecord, token: string, now: string, requestExpiresAt: number): Promise<boolean> {
  return conditional([
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

/** The attempt item and the delivery's conditional update: what recordAttempt writes in one transaction. */
export function attemptItems(tenant: Tenant, delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome): TransactItem[] {
  const attemptKey: ItemKey = tenantKeys.deliveryAttempt(tenant, delivery.id, attempt.attempt);
  return [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...attemptKey,
          entity: 'DELIVERY_ATTEMPT',
          delivery_id: delivery.id,
          attempt: attempt.attempt,
          attempted_at: attempt.attemptedAt,
          status_code: attempt.statusCode,
          duration_ms: attempt.durationMs,
          error: attempt.error,
          response_body: attempt.responseBody,
          expires_at: delivery.expiresAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    deliveryUpdate(
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
      },
      { token: delivery.token },
    ),
  ];
}

/** Records an attempt and its consequence together; false when another chain took over meanwhile. */
export function recordAttempt(tenant: Tenant, delivery: DeliveryRecord, attempt: AttemptRecord, outcome: AttemptOutcome): Promise<boolean> {
  return conditional(attemptItems(tenant, delivery, attempt, outcome));
}

/** TransactWriteItems' limit. */
const MAX_TRANSACTION_ITEMS = 100;

function itemKeyOf(item: TransactItem): string {
  const key = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as ItemKey | undefined;
  return `${key?.pk}\u0000${key?.sk}`;
}

/**
 * Several independent conditional writes — each a group of items that belong together, such as
 * attemptItems (or a single Update) — in as few TransactWriteItems calls as possible (the
 * delivery worker records a whole batch's attempts with one call). Each group gets the answer it would get written alone:
 * when a combined transaction is cancelled (a delivery was no longer in the expected state, or a
 * conflicting write), nothing of it was written, and each of its groups is then written on its
 * own exactly like recordAttempt. Groups touching the same item never share a transaction.
 */
export async function conditionalGroups(groups: TransactItem[][]): Promise<boolean[]> {
  const chunks: number[][] = [];
  let chunk: number[] = [];
  let size = 0;
  let keys = new Set<string>();
  groups.forEach((group, index) => {
    const groupKeys = group.map(itemKeyOf);
    if (chunk.length && (size + group.length > MAX_TRANSACTION_ITEMS || groupKeys.some((key) => keys.has(key)))) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
      keys = new Set();
    }
    chunk.push(index);
    size += group.length;
    groupKeys.forEach((key) => keys.add(key));
  });
  if (chunk.length) chunks.push(chunk);

  const answers: boolean[] = groups.map(() => false);
  await Promise.all(
    chunks.map(async (indexes) => {
      const alone = () => Promise.all(indexes.map(async (index) => void (answers[index] = await conditional(groups[index]!))));
      if (indexes.length === 1) return alone();
      try {
        await dynamo().send(new TransactWriteCommand({ TransactItems: indexes.flatMap((index) => groups[index]!) }));
        indexes.forEach((index) => (answers[index] = true));
      } catch (error) {
        if (!isTransactionCanceled(error)) throw error;
        await alone();
      }
    }),
  );
  return answers;
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
  return conditional([deliveryUpdate(tenant, delivery, fields, { token: options.token })]);
}

/**
 * Deliveries in the single table (stored.ts has the item). Every state change is conditional on
 * the status being `pending` and on the message chain (`token`) the item expects, so a
 * superseded duplicate message can never overwrite a newer outcome; an attempt is also
 * conditional on the attempt count it follows, so two copies of one message cannot both record
 * theirs.
 *
 * The history of one registration, newest first, optionally by status and event kind: unfiltered
 * pages come from gsi1, status filters from gsi2 (whose partition moves with the status). Both
 * are KEYS_ONLY and their sort key is `<delivery id>#<kind>`: delivery ids sort by event time and
 * the kind rides along, so the event filter and the total are worked out on the small key records
 * alone, and only the page itself is fetched (one BatchGet). No counter is kept for the total:
 * history expires by TTL, which a counter would not notice; it is counted up to TOTAL_CAP keys.
 *
 * While a delivery is pending it is also in the pending-deliveries index (gsi3), under the time
 * its queue message should next act on it; the delivery sweeper (events/sweeper.ts) finds there
 * the ones whose message was lost. Every write below that changes the status or the message
 * chain keeps that entry in step (`dueFields`).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { countCollectionUpTo, readWindow, TOTAL_CAP, type CollectionQuery, type Total } from '#shared/db/collections';
import { writeConditionally } from '#shared/db/conditional-writes';
import { batchGet, keyId } from '#shared/db/batch';
import { deliveryIdOfSortKey, deliveryOfKey, sweepKeys, webhookKeys } from '#shared/db/keys';
import { queryAll } from '#shared/db/query';
import { tableName, type TransactItem } from '#shared/db/table';
import { buildUpdate } from '#shared/db/update-expression';
import { MAX_KEPT_ATTEMPTS } from './limits';
import { deliveryFromItem, deliveryPut, storedAttempt, type AttemptRecord, type DeliveryRecord, type DeliveryStatus } from './stored';

export { MAX_KEPT_ATTEMPTS };

export async function readDelivery(tenant: Tenant, id: string): Promise<DeliveryRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(tenant, id), ConsistentRead: true }),
  );
  return result.Item ? deliveryFromItem(result.Item) : undefined;
}

/**
 * An Update of the delivery that only applies while it is pending on `token` (or, without a
 * token, pending at all). Null values are removed.
 */
function deliveryUpdate(
  tenant: Tenant,
  delivery: DeliveryRecord,
  fields: Record<string, unknown>,
  options: { token?: string; attemptCount?: number; requirePending?: boolean } = {},
): TransactItem {
  const parts = buildUpdate(fields);
  const names: Record<string, string> = { ...parts.ExpressionAttributeNames };
  const values: Record<string, unknown> = { ...parts.ExpressionAttributeValues };
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
  return {
    Update: {
      TableName: tableName(),
      Key: webhookKeys.delivery(tenant, delivery.id),
      UpdateExpression: parts.UpdateExpression,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The pending-deliveries index entry (gsi3, shared/db/keys.ts `sweepKeys`): while pending, when
 * the delivery's message should next act (`due`); otherwise none (null removes the attributes).
 */
const dueFields = (delivery: DeliveryRecord, status: DeliveryStatus, due: string) =>
  status === 'pending' ? sweepKeys.pendingDue(delivery.id, due) : { gsi3pk: null, gsi3sk: null };

/** The status, its index partition, and the pending-deliveries entry (due at `due`, by default now). */
const statusFields = (tenant: Tenant, delivery: DeliveryRecord, status: DeliveryStatus, now: string, due = now) => ({
  status,
  updated_at: now,
  gsi2pk: webhookKeys.webhookDeliveriesByStatus(tenant, delivery.webhook_id, status),
  ...dueFields(delivery, status, due),
});

/**
 * The conditional Put that creates a delivery (stored.ts) unless it exists already, in the
 * pending-deliveries index from the start: its first message should act at once.
 */
export function newDeliveryPut(tenant: Tenant, delivery: DeliveryRecord): TransactItem {
  const put = deliveryPut(tenant, delivery);
  return { Put: { ...put.Put!, Item: { ...put.Put!.Item, ...dueFields(delivery, delivery.status, delivery.created_at) } } };
}

/**
 * Points a pending delivery at a new message chain (the router re-enqueues a replayed event, the
 * sweeper one whose message was lost): the new message should act now.
 */
export function rearmPending(tenant: Tenant, delivery: DeliveryRecord, token: string, now: string): Promise<boolean> {
  return writeConditionally([
    deliveryUpdate(tenant, delivery, { token, updated_at: now, ...dueFields(delivery, 'pending', now) }, { token: delivery.token }),
  ]);
}

/**
 * A redelivery: back to pending with a new chain and a fresh retry schedule, plus a request item
 * whose stream insert makes the router enqueue it — in one transaction, so a crash cannot leave a
 * pending delivery without a message on its way.
 */
export function requestRedelivery(
  tenant: Tenant,
  delivery: DeliveryRecord,
  token: string,
  now: string,
  requestExpiresAt: number,
): Promise<boolean> {
  return writeConditionally([
    deliveryUpdate(
      tenant,
      delivery,
      { ...statusFields(tenant, delivery, 'pending', now), token, chain_attempts: 0, next_attempt_at: null },
      { requirePending: false },
    ),
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...webhookKeys.deliveryRequest(tenant, delivery.id, token),
          entity: 'DELIVERY_REQUEST',
          account_id: tenant.accountId,
          mode: tenant.mode,
          delivery_id: delivery.id,
          webhook_id: delivery.webhook_id,
          token,
          created_at: now,
          expires_at: requestExpiresAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
}

/**
 * Writes a test event's outbox item (`testEventPut`, shared/events/outbox.ts): like a redelivery's
 * request item, its stream insert makes the router send it — to its one registration.
 */
export async function insertTestEvent(item: TransactItem): Promise<void> {
  await dynamo().send(new PutCommand(item.Put as never));
}

export interface AttemptOutcome {
  status: 'pending' | 'succeeded' | 'failed';
  /** When the next attempt is due (pending only). */
  next_attempt_at?: string | null;
}

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
      // Pending after a failed attempt: due at the next attempt (or now, after the last one, until the DLQ handler ends it).
      ...statusFields(tenant, delivery, outcome.status, attempt.attempted_at, outcome.next_attempt_at ?? attempt.attempted_at),
      attempt_count: attempt.attempt,
      chain_attempts: delivery.chain_attempts + 1,
      last_attempt_at: attempt.attempted_at,
      last_status_code: attempt.status_code,
      last_error: attempt.error,
      next_attempt_at: outcome.next_attempt_at ?? null,
      // Absent values are left out of the stored map (reads give null).
      attempts: kept.map((entry) => Object.fromEntries(Object.entries(storedAttempt.view(entry)).filter(([, value]) => value !== null))),
    },
    { token: delivery.token, attemptCount: delivery.attempt_count },
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
    next_attempt_at: null,
    ...(options.deadLettered ? { dead_lettered_at: now } : {}),
  };
  return writeConditionally([deliveryUpdate(tenant, delivery, fields, { token: options.token })]);
}

export interface HistoryFilter {
  status?: DeliveryStatus;
  kind?: string;
}

export interface HistoryPage {
  page: number;
  perPage: number;
  /** Cursor: only deliveries older than this one (its id). */
  after?: string;
}

/**
 * One page of a registration's history, newest first: the page's keys from the keys-only index
 * (one more, to know whether more follow) and its items in one BatchGetItem; the total counted on
 * the index up to TOTAL_CAP keys. The `event` filter works on the keys (the kind ends the index
 * sort key) and examines at most MAX_EXAMINED of them per request: a page of a rare kind may come
 * back short, with `next` (the last delivery id examined) to go on from.
 */
export async function listDeliveries(
  tenant: Tenant,
  webhookId: number,
  filter: HistoryFilter,
  { page, perPage, after }: HistoryPage,
): Promise<{ items: DeliveryRecord[]; hasMore: boolean; next: string | undefined } & Total> {
  const index = filter.status ? 'gsi2' : 'gsi1';
  const partition = filter.status
    ? webhookKeys.webhookDeliveriesByStatus(tenant, webhookId, filter.status)
    : webhookKeys.webhookDeliveries(tenant, webhookId);
  const sortKey = (entry: Record<string, unknown>) => String(entry[`${index}sk`]);
  const suffix = filter.kind === undefined ? undefined : `#${filter.kind}`;
  const keep = suffix === undefined ? undefined : (entry: Record<string, unknown>) => sortKey(entry).endsWith(suffix);
  const whole: CollectionQuery = { index, partition, newestFirst: true };
  // Delivery ids have one length, so `<id>` sorts just below `<id>#<kind>` and above every older delivery's key ('0' below all).
  const window: CollectionQuery = after === undefined ? whole : { ...whole, sortKeyBetween: ['0', after] };
  const [found, total] = await Promise.all([
    readWindow(window, { perPage, offset: (page - 1) * perPage, keep }),
    countCollectionUpTo(whole, TOTAL_CAP, keep),
  ]);
  // An item can change status between the index read and the fetch; the page shows it as it is now.
  return {
    items: found.items.map(deliveryFromItem),
    hasMore: found.hasMore,
    next: found.next === undefined ? undefined : deliveryIdOfSortKey(sortKey(found.next)),
    ...total,
  };
}

/** Creates the delivery unless it exists already: true when created (the router writes its batch's deliveries together). */
export const insertDelivery = (tenant: Tenant, delivery: DeliveryRecord): Promise<boolean> =>
  writeConditionally([newDeliveryPut(tenant, delivery)]);

/** A pending delivery found in the pending-deliveries index: whose it is, and when it was due. */
export interface DueDelivery {
  tenant: Tenant;
  deliveryId: string;
  due: string;
}

/**
 * Pending deliveries of one shard of the pending-deliveries index that were due before `before`
 * (ISO), oldest first, at most `limit`: one Query of small key records. The index is eventually
 * consistent: the caller reads each delivery again before acting on it.
 */
export async function overdueDeliveries(shard: number, before: string, limit: number): Promise<DueDelivery[]> {
  const entries = await queryAll(
    {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :shard AND gsi3sk < :before',
      ExpressionAttributeValues: { ':shard': sweepKeys.dueShard(shard), ':before': sweepKeys.dueBefore(before) },
    },
    { max: limit },
  );
  return entries.flatMap((entry) => {
    const found = deliveryOfKey({ pk: String(entry.pk), sk: String(entry.sk) });
    return found ? [{ ...found, due: String(entry.gsi3sk).split('#')[0]! }] : [];
  });
}

/** The deliveries at these ids, read strongly consistent in one BatchGetItem per 100, with their index entry's due time. */
export async function readDeliveries(
  wanted: readonly { tenant: Tenant; deliveryId: string }[],
): Promise<{ tenant: Tenant; delivery: DeliveryRecord; due: string | undefined }[]> {
  const found = await batchGet(
    wanted.map(({ tenant, deliveryId }) => webhookKeys.delivery(tenant, deliveryId)),
    { consistent: true },
  );
  return wanted.flatMap(({ tenant, deliveryId }) => {
    const item = found.get(keyId(webhookKeys.delivery(tenant, deliveryId)));
    if (!item) return [];
    const due = typeof item.gsi3sk === 'string' ? item.gsi3sk.split('#')[0] : undefined;
    return [{ tenant, delivery: deliveryFromItem(item), due }];
  });
}

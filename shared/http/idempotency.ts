/**
 * Idempotency-Key on POST requests, with conditional writes on the single table (the same record
 * life cycle as Powertools idempotency, whose package — with its JMESPath engine — would add
 * about 20 KiB to every POST bundle and break the 350 KiB budget; see docs/platform.md):
 *   same key + same request  → the stored first response, with `Idempotent-Replayed: true`;
 *   same key + other request → 409 idempotency_conflict;
 *   same key while the first still runs → 409 idempotency_conflict.
 * Records live in the tenant's partition (keys are scoped per tenant and per key kind, so a
 * publishable key cannot claim a secret key's Idempotency-Key; per customer for customer tokens;
 * per publishable key and client address for storefront visitors, so one visitor neither replays
 * nor blocks another's) and expire after 24 h.
 * A request that fails (throws) leaves no record, so it may be retried with the same key.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context } from 'aws-lambda';
import { createHash } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys, type IdempotencyCaller } from '#shared/db/keys';
import { isConditionFailure, tableName } from '#shared/db/table';
import { logger } from '#shared/logger';
import type { HttpResult } from './envelope';
import { idempotencyKeyOf } from './idempotency-key';
import { DomainError } from '#shared/errors';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export interface IdempotentInput {
  key: string;
  /**
   * Records are scoped per caller kind (a publishable key never meets a secret key's record), per
   * customer for customer tokens, and per publishable key and client address for storefront visitors.
   */
  caller: IdempotencyCaller;
  request: { route: string; path: string; body: unknown };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with object keys sorted, so equal requests hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, inner]) => inner !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const conflict = (message: string, reason: string) =>
  new DomainError('idempotency_conflict', message, [{ field: 'Idempotency-Key', message: reason }]);

/**
 * Runs `work` under an idempotency key. `replayView` shapes the `data` stored for replays (e.g. a
 * webhook secret is shown once: the first answer has it, a replay shows only its hint).
 */
export async function runIdempotently(
  tenant: Tenant,
  input: IdempotentInput,
  context: Context | undefined,
  work: () => Promise<HttpResult>,
  replayView?: (data: never) => unknown,
): Promise<HttpResult> {
  const key = tenantKeys.idempotency(tenant, input.caller, sha256(input.key));
  const requestHash = sha256(canonicalJson(input.request));
  const now = Date.now();
  // A crashed first attempt blocks its key only until its own deadline.
  const inProgressUntil = now + Math.max(1000, context?.getRemainingTimeInMillis() ?? 30_000);
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...key,
          entity: 'IDEMPOTENCY',
          status: 'IN_PROGRESS',
          request_hash: requestHash,
          in_progress_until: inProgressUntil,
          expires_at: Math.floor(now / 1000) + IDEMPOTENCY_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :nowSeconds OR (#status = :inProgress AND in_progress_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':nowSeconds': Math.floor(now / 1000), ':inProgress': 'IN_PROGRESS', ':now': now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const raw = (error as { Item?: Record<string, never> }).Item;
    const existing = raw ? unmarshall(raw) : undefined;
    if (!existing || existing.request_hash !== requestHash) {
      throw conflict(
        'This Idempotency-Key was used with a different request; use a new key for a new request',
        'already used with another request',
      );
    }
    if (existing.status !== 'COMPLETED')
      throw conflict('A request with this Idempotency-Key is still being processed; retry shortly', 'request in progress');
    const stored = JSON.parse(String(existing.response)) as HttpResult;
    return { ...stored, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' } };
  }

  let result: HttpResult;
  try {
    result = await work();
  } catch (error) {
    await dynamo()
      .send(
        new DeleteCommand({
          TableName: tableName(),
          Key: key,
          ConditionExpression: '#status = :inProgress',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':inProgress': 'IN_PROGRESS' },
        }),
      )
      .catch((deleteError: unknown) => logger.error('idempotency record could not be released', { error: deleteError as Error }));
    throw error;
  }
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #status = :completed, #response = :response REMOVE in_progress_until',
        ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
        ExpressionAttributeValues: {
          ':completed': 'COMPLETED',
          ':response': JSON.stringify(replayView ? withData(result, replayView) : result),
        },
      }),
    );
  } catch (error) {
    // The work is done and the client gets its answer; a retry after the in-progress deadline
    // would run it again, which is why this is logged as an error.
    logger.error('idempotency result could not be stored', { error: error as Error });
  }
  return result;
}

/**
 * Opt-in for POST handlers (`defineHandler(operation, fn, { idempotency: idempotent() })`): only
 * their bundles carry it. A request without the header just runs.
 */
export const idempotent =
  <D>(
    options: {
      replayView?: (data: D) => unknown;
      /**
       * Body fields left out of the stored request fingerprint: passwords. A fast hash of a body
       * that holds a password is not kept for a day; a replay that differs only there is treated
       * as the same request.
       */
      secretFields?: readonly string[];
    } = {},
  ) =>
  (
    tenant: Tenant,
    input: Omit<IdempotentInput, 'key'> & { headers: Record<string, string> },
    context: Context | undefined,
    work: () => Promise<HttpResult>,
  ) => {
    const key = idempotencyKeyOf(input.headers);
    if (!key) return work();
    const { caller, request } = input;
    const fingerprinted = options.secretFields ? { ...request, body: without(request.body, options.secretFields) } : request;
    return runIdempotently(
      tenant,
      { key, caller, request: fingerprinted },
      context,
      work,
      options.replayView as ((data: never) => unknown) | undefined,
    );
  };

function without(body: unknown, fields: readonly string[]): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => !fields.includes(name)));
}

/** The result with its envelope's `data` replaced by `view(data)`. */
function withData(result: HttpResult, view: (data: never) => unknown): HttpResult {
  const body = result.body as { data?: unknown } | undefined;
  if (body?.data === undefined) return result;
  return { ...result, body: { ...body, data: view(body.data as never) } };
}

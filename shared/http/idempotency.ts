/**
 * Idempotency-Key on POST requests, with Powertools idempotency over the single table: records
 * live in the tenant's own partition (so keys are scoped per tenant), expire after 24 h (TTL on
 * `expires_at`), and are validated against the route, path and body of the first request:
 *   same key + same request  → the stored first response, with `Idempotent-Replayed: true`;
 *   same key + other request → 409 idempotency_conflict;
 *   same key while the first still runs → 409 idempotency_conflict.
 * A request that fails (throws) leaves no record, so it may be retried with the same key.
 */
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import type { Tenant } from '../auth/principal';
import { dynamoBase } from '../clients/dynamodb';
import { tenantKeys } from '../db/keys';
import { tableName } from '../db/table';
import type { HttpResult } from './envelope';
import { ApiError } from './errors';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export interface IdempotentInput {
  key: string;
  request: { route: string; path: string; body: unknown };
}

/**
 * Runs `work` under an idempotency key. `redact` shapes what is stored for replays (e.g. a
 * webhook secret is shown once: the first answer has it, a replay shows only its hint).
 */
export async function runIdempotently(
  tenant: Tenant,
  input: IdempotentInput,
  context: Context | undefined,
  work: () => Promise<HttpResult>,
  redact: (result: HttpResult) => HttpResult = (result) => result,
): Promise<HttpResult> {
  const persistenceStore = new DynamoDBPersistenceLayer({
    tableName: tableName(),
    keyAttr: 'pk',
    sortKeyAttr: 'sk',
    staticPkValue: tenantKeys.idempotency(tenant),
    expiryAttr: 'expires_at',
    awsSdkV3Client: dynamoBase(),
  });
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    ...(context ? { lambdaContext: context } : {}),
    responseHook: (response) => {
      const stored = response as unknown as HttpResult;
      return { ...stored, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' } } as never;
    },
  });
  // The first caller gets the real result; the store gets plain JSON (no undefined members), redacted.
  let firstResult: HttpResult | undefined;
  const idempotent = makeIdempotent(async (_input: IdempotentInput) => {
    firstResult = await work();
    return JSON.parse(JSON.stringify(redact(firstResult))) as HttpResult;
  }, {
    persistenceStore,
    config,
    keyPrefix: 'idempotency',
    dataIndexArgument: 0,
  });
  try {
    const stored = await idempotent(input);
    return firstResult ?? stored;
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'IdempotencyValidationError') {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was used with a different request; use a new key for a new request', [
        { field: 'Idempotency-Key', message: 'already used with another request' },
      ]);
    }
    if (name === 'IdempotencyAlreadyInProgressError') {
      throw new ApiError('idempotency_conflict', 'A request with this Idempotency-Key is still being processed; retry shortly', [
        { field: 'Idempotency-Key', message: 'request in progress' },
      ]);
    }
    throw error;
  }
}

/** Opt-in for POST handlers (`defineHandler(operation, fn, { idempotency: idempotent() })`): only their bundles carry it. */
export const idempotent =
  (redact?: (result: HttpResult) => HttpResult) =>
  (tenant: Tenant, input: IdempotentInput, context: Context | undefined, work: () => Promise<HttpResult>) =>
    runIdempotently(tenant, input, context, work, redact);

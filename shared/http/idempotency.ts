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
import { ApiError, ValidationError } from './errors';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
const keyPattern = /^[\x20-\x7E]{1,255}$/;

/** The header value, validated; undefined when the request carries none. */
export function idempotencyKeyOf(headers: Record<string, string>): string | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!keyPattern.test(key)) {
    throw new ValidationError('Invalid Idempotency-Key', [{ field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }]);
  }
  return key;
}

interface IdempotentInput {
  key: string;
  request: { route: string; path: string; body: unknown };
}

export async function runIdempotently(
  tenant: Tenant,
  input: IdempotentInput,
  context: Context | undefined,
  work: () => Promise<HttpResult>,
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
  // The stored response must be plain JSON (no undefined members) for the persistence layer.
  const idempotent = makeIdempotent(async (_input: IdempotentInput) => JSON.parse(JSON.stringify(await work())) as HttpResult, {
    persistenceStore,
    config,
    keyPrefix: 'idempotency',
    dataIndexArgument: 0,
  });
  try {
    return await idempotent(input);
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

/**
 * Refresh-token families (RFC 9700 §4.14): a login starts a family; each refresh uses its token
 * once and gets the next one in the same family. A token presented a second time means it was
 * copied — the whole family is revoked, so the thief's and the customer's tokens both stop
 * working. Tokens are stored by their SHA-256 only, expire after 30 days (and by TTL), and a
 * rotation is one transaction conditional on the old token being unused, the family alive and
 * the family's login generation still current (session-rules.ts), so two concurrent refreshes with
 * one token cannot both succeed (the second counts as reuse), and no family a password change or
 * reset ended refreshes again.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { customerAuthKeys } from '#shared/db/keys';
import { isTransactionCanceled, tableName, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { generationCondition, type SessionStamp } from './session-rules';
import { newRefreshToken, REFRESH_TOKEN_DAYS, refreshTokenHash } from './tokens';

/** Why a refresh token was refused; the API answers 401 for every one of them, without saying which. */
export type RefreshRefusal = 'unknown' | 'expired' | 'revoked' | 'reused' | 'ended';

export class RefreshRefused extends Error {
  constructor(readonly reason: RefreshRefusal) {
    super(`Refresh token refused: ${reason}`);
    this.name = 'RefreshRefused';
  }
}

const DAY_MS = 86_400_000;

function tokenPut(tenant: Tenant, token: string, familyId: string, customerId: number, generation: number, now: Date): TransactItem {
  const expires = new Date(now.getTime() + REFRESH_TOKEN_DAYS * DAY_MS);
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...customerAuthKeys.refreshToken(tenant, refreshTokenHash(token)),
        entity: 'REFRESH_TOKEN',
        family_id: familyId,
        customer_id: customerId,
        // The family's login generation (a rotation checks it against the login's without reading the family).
        generation,
        created_at: now.toISOString(),
        valid_until: expires.toISOString(),
        // The table's TTL attribute (epoch seconds): the item leaves once the token has expired.
        expires_at: Math.floor(expires.getTime() / 1000),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * A login: a new family with its first token, of the login's session generation (`generation`, as
 * read with the password verified: a change made meanwhile has moved it, and the family is ended
 * from its start).
 */
export async function startFamily(
  tenant: Tenant,
  customerId: number,
  now = new Date(),
  generation = 0,
): Promise<{ refreshToken: string; familyId: string }> {
  const familyId = randomUUID();
  const refreshToken = newRefreshToken();
  const expires = new Date(now.getTime() + REFRESH_TOKEN_DAYS * DAY_MS);
  await transactWrite([
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...customerAuthKeys.family(tenant, familyId),
          entity: 'REFRESH_FAMILY',
          customer_id: customerId,
          generation,
          created_at: now.toISOString(),
          // The family outlives its tokens by nothing: each rotation moves its expiry with the new token.
          expires_at: Math.floor(expires.getTime() / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    tokenPut(tenant, refreshToken, familyId, customerId, generation, now),
  ]);
  return { refreshToken, familyId };
}

/** The family of a refresh token (logout), or undefined for an unknown one. */
export async function familyOf(tenant: Tenant, token: string): Promise<string | undefined> {
  const key = customerAuthKeys.refreshToken(tenant, refreshTokenHash(token));
  const stored = (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  return stored ? String(stored.family_id) : undefined;
}

/**
 * A login session (a family) of this customer that was not logged out, with its generation — what
 * the authorizer holds against the login (session-rules.ts): access tokens name theirs (`sid`), so
 * a logout, a password change or a reset ends them at once, not only at their expiry.
 */
export async function readSession(tenant: Tenant, familyId: string, customerId: number): Promise<SessionStamp | undefined> {
  const family = (
    await dynamo().send(
      new GetCommand({
        TableName: tableName(),
        Key: customerAuthKeys.family(tenant, familyId),
        ProjectionExpression: 'customer_id, revoked_at, generation',
        ConsistentRead: true,
      }),
    )
  ).Item;
  if (family === undefined || Number(family.customer_id) !== customerId || family.revoked_at !== undefined) return undefined;
  return { familyId, generation: Number(family.generation ?? 0) };
}

/** Revokes a family: none of its tokens refreshes again. Idempotent. */
export async function revokeFamily(tenant: Tenant, familyId: string, now = new Date()): Promise<void> {
  await dynamo()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerAuthKeys.family(tenant, familyId),
        UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    )
    .catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    });
}

/**
 * Uses `token` once: answers the customer and a new token of the same family, or throws
 * RefreshRefused (and revokes the family when the token was used before).
 */
export async function rotate(
  tenant: Tenant,
  token: string,
  now = new Date(),
): Promise<{ customerId: number; refreshToken: string; familyId: string }> {
  const key = customerAuthKeys.refreshToken(tenant, refreshTokenHash(token));
  const stored = (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  if (!stored) throw new RefreshRefused('unknown');
  const familyId = String(stored.family_id);
  const customerId = Number(stored.customer_id);
  const generation = Number(stored.generation ?? 0);
  if (stored.used_at) {
    await revokeFamily(tenant, familyId, now);
    throw new RefreshRefused('reused');
  }
  if (String(stored.valid_until) <= now.toISOString()) throw new RefreshRefused('expired');
  const next = newRefreshToken();
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET used_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(used_at)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: customerAuthKeys.family(tenant, familyId),
          UpdateExpression: 'SET last_used_at = :now, expires_at = :ttl',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
          ExpressionAttributeValues: {
            ':now': now.toISOString(),
            ':ttl': Math.floor((now.getTime() + REFRESH_TOKEN_DAYS * DAY_MS) / 1000),
          },
        },
      },
      tokenPut(tenant, next, familyId, customerId, generation, now),
      {
        // The login still exists, and a password change or reset has not ended the family's generation.
        ConditionCheck: {
          TableName: tableName(),
          Key: customerAuthKeys.login(tenant, customerId),
          ConditionExpression: `attribute_exists(pk) AND (${generationCondition('session_generation', ':generation', generation)} OR kept_session = :family)`,
          ExpressionAttributeValues: { ':generation': generation, ':family': familyId },
        },
      },
    ]);
  } catch (error) {
    if (!isTransactionCanceled(error)) throw error;
    const [tokenReason, familyReason, , loginReason] = (error.CancellationReasons ?? []).map((reason) => reason?.Code);
    if (familyReason === 'ConditionalCheckFailed') throw new RefreshRefused('revoked');
    if (loginReason === 'ConditionalCheckFailed') throw new RefreshRefused('ended');
    // Used by a concurrent refresh a moment ago: the same token twice is a reuse, whoever came first.
    if (tokenReason === 'ConditionalCheckFailed') {
      await revokeFamily(tenant, familyId, now);
      throw new RefreshRefused('reused');
    }
    throw error;
  }
  return { customerId, refreshToken: next, familyId };
}

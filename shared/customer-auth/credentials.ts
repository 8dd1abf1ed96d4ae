/**
 * A customer's login and password-reset tokens. The login — the password hash (passwords.ts) —
 * is an item in the customer's own partition, so deleting the customer deletes it in the same
 * transaction (shared/customers/repository.ts) and one customer has at most one. Reset tokens are
 * opaque (256 bits), stored as their SHA-256, valid 30 minutes and used at most once: the use is a
 * conditional update, so two requests with one token cannot both set a password.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash, randomBytes } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { customerAuthKeys, tenantKeys } from '#shared/db/keys';
import { isConditionFailure, isTransactionCanceled, tableName } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { ConflictError, NotFoundError } from '#shared/errors';

export const RESET_TOKEN_MINUTES = 30;

export interface Login {
  customer_id: number;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export async function readLogin(tenant: Tenant, customerId: number): Promise<Login | undefined> {
  const item = (
    await dynamo().send(new GetCommand({ TableName: tableName(), Key: customerAuthKeys.login(tenant, customerId), ConsistentRead: true }))
  ).Item;
  return item
    ? {
        customer_id: customerId,
        password_hash: String(item.password_hash),
        created_at: String(item.created_at),
        updated_at: String(item.updated_at),
      }
    : undefined;
}

/** Gives an existing customer a login: 404 without the customer, 409 when it has one already. */
export async function createLogin(tenant: Tenant, customerId: number, passwordHash: string, now = new Date()): Promise<void> {
  const at = now.toISOString();
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...customerAuthKeys.login(tenant, customerId),
            entity: 'LOGIN',
            password_hash: passwordHash,
            created_at: at,
            updated_at: at,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: tenantKeys.customer(tenant, customerId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ]);
  } catch (error) {
    if (!isTransactionCanceled(error)) throw error;
    const [login, customer] = (error.CancellationReasons ?? []).map((reason) => reason?.Code);
    if (customer === 'ConditionalCheckFailed') throw new NotFoundError('customer', customerId);
    if (login === 'ConditionalCheckFailed') throw new ConflictError('This customer already has a login');
    throw error;
  }
}

/** Replaces the password hash of an existing login (a change, a reset, or a rehash with raised parameters). */
export async function replacePasswordHash(tenant: Tenant, customerId: number, passwordHash: string, now = new Date()): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerAuthKeys.login(tenant, customerId),
        UpdateExpression: 'SET password_hash = :hash, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':hash': passwordHash, ':now': now.toISOString() },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('login of customer', customerId);
    throw error;
  }
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new reset token for the customer (the token itself goes only into the email). */
export async function issueResetToken(tenant: Tenant, customerId: number, now = new Date()): Promise<{ token: string; expiresAt: string }> {
  const token = `prt_${randomBytes(32).toString('base64url')}`;
  const expires = new Date(now.getTime() + RESET_TOKEN_MINUTES * 60_000);
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...customerAuthKeys.passwordReset(tenant, hashOf(token)),
        entity: 'PASSWORD_RESET',
        customer_id: customerId,
        valid_until: expires.toISOString(),
        // The table's TTL attribute (epoch seconds), an hour after the token expired.
        expires_at: Math.floor(expires.getTime() / 1000) + 3600,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return { token, expiresAt: expires.toISOString() };
}

/** Uses a reset token once: answers its customer, or undefined for an unknown, used or expired token. */
export async function consumeResetToken(tenant: Tenant, token: string, now = new Date()): Promise<number | undefined> {
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerAuthKeys.passwordReset(tenant, hashOf(token)),
        UpdateExpression: 'SET used_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(used_at) AND valid_until > :now',
        ExpressionAttributeValues: { ':now': now.toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Number(result.Attributes!.customer_id);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

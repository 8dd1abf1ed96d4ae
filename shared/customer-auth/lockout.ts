/**
 * Login lockout per email: after 10 failed logins within 15 minutes (counted from the first
 * failure of the run), further attempts for that email answer 429 with `Retry-After` until the 15
 * minutes have passed — whatever the password — while other emails are unaffected. Counted in
 * DynamoDB (one item per tenant and email, by the SHA-256 of the address, expiring by TTL), not in
 * a function's memory: every instance sees the same count. A successful login clears it.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { customerAuthKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { RateLimitedError } from '#shared/errors';

export const MAX_FAILURES = 10;
export const LOCKOUT_WINDOW_SECONDS = 15 * 60;

const keyOf = (tenant: Tenant, email: string) =>
  customerAuthKeys.loginFailures(tenant, createHash('sha256').update(email.trim().toLowerCase()).digest('hex'));

/** 429 while the email is locked out (checked before the password is: a locked email costs no scrypt work). */
export async function assertNotLockedOut(tenant: Tenant, email: string, now = new Date()): Promise<void> {
  const item = (await dynamo().send(new GetCommand({ TableName: tableName(), Key: keyOf(tenant, email), ConsistentRead: true }))).Item;
  if (!item) return;
  const until = Number(item.window_start) + LOCKOUT_WINDOW_SECONDS;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (Number(item.failures) >= MAX_FAILURES && nowSeconds < until) {
    throw new RateLimitedError('Too many failed logins for this email; try again later', until - nowSeconds);
  }
}

/**
 * Counts a failed login: within the window, one more (an atomic ADD); after it, a new window of one
 * (conditional on the window read, so two failures racing at its end start one window, not two).
 */
export async function recordFailure(tenant: Tenant, email: string, now = new Date()): Promise<void> {
  const key = keyOf(tenant, email);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'ADD failures :one',
        ConditionExpression: 'attribute_exists(pk) AND window_start > :windowOpen',
        ExpressionAttributeValues: { ':one': 1, ':windowOpen': nowSeconds - LOCKOUT_WINDOW_SECONDS },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    // No window open: this failure starts one — unless a racing failure just did, then it counts in that one.
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET failures = :one, window_start = :now, expires_at = :ttl',
          ConditionExpression: 'attribute_not_exists(pk) OR window_start <= :windowOpen',
          ExpressionAttributeValues: {
            ':one': 1,
            ':now': nowSeconds,
            ':ttl': nowSeconds + 2 * LOCKOUT_WINDOW_SECONDS,
            ':windowOpen': nowSeconds - LOCKOUT_WINDOW_SECONDS,
          },
        }),
      );
    } catch (raced) {
      if ((raced as { name?: string }).name !== 'ConditionalCheckFailedException') throw raced;
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'ADD failures :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    }
  }
}

/** A successful login clears the count. */
export async function clearFailures(tenant: Tenant, email: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: keyOf(tenant, email) }));
}

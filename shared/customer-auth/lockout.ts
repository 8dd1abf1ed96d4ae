/**
 * Login lockout per email: at most 10 password checks within 15 minutes (counted from the first
 * attempt of the run); further attempts for that email answer 429 with `Retry-After` until the 15
 * minutes have passed — whatever the password — while other emails are unaffected. A successful
 * login clears the count.
 *
 * An attempt is counted **before** its password is checked: a conditional increment reserves one
 * of the 10 checks (`failures < 10` in the condition), and only a request that got one runs
 * scrypt. So however many guesses arrive at once, at most 10 are checked — counting after the
 * check, concurrent guesses all passed a read of a count none of them had raised yet. Counted in
 * DynamoDB (one item per tenant and email, by the SHA-256 of the address, expiring by TTL), not in
 * a function's memory: every instance sees the same count.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { createHash } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { customerAuthKeys } from '#shared/db/keys';
import { isConditionFailure, tableName } from '#shared/db/table';
import { RateLimitedError } from '#shared/errors';

export const MAX_FAILURES = 10;
export const LOCKOUT_WINDOW_SECONDS = 15 * 60;

/** The stored count of one email: attempts in the window that started at `window_start` (Unix seconds). */
export interface AttemptCount {
  failures: number;
  window_start: number;
}

/**
 * What a count means at `nowSeconds`: no window open (the next attempt starts one), a window with
 * checks left, or locked until the window ends (`retryAfter` seconds from now).
 */
export function lockoutState(
  count: AttemptCount | undefined,
  nowSeconds: number,
): { state: 'no-window' } | { state: 'open' } | { state: 'locked'; retryAfter: number } {
  if (!count || count.window_start + LOCKOUT_WINDOW_SECONDS <= nowSeconds) return { state: 'no-window' };
  if (count.failures < MAX_FAILURES) return { state: 'open' };
  return { state: 'locked', retryAfter: count.window_start + LOCKOUT_WINDOW_SECONDS - nowSeconds };
}

const keyOf = (tenant: Tenant, email: string) =>
  customerAuthKeys.loginFailures(tenant, createHash('sha256').update(email.trim().toLowerCase()).digest('hex'));

const locked = (retryAfter: number) => new RateLimitedError('Too many failed logins for this email; try again later', retryAfter);

/** Attempts at reserving a check: each lost race (a window started or ended meanwhile) tries once more. */
const RESERVE_ATTEMPTS = 3;

/**
 * Reserves one password check for the email — an atomic increment, conditional on a window open
 * with fewer than 10 counted — or throws the 429 while the email is locked out (so a locked email
 * costs no scrypt work). Without an open window, starts one counting this attempt (conditional on
 * none being open, so two attempts racing at its start count in one window).
 */
export async function reserveAttempt(tenant: Tenant, email: string, now = new Date()): Promise<void> {
  const key = keyOf(tenant, email);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowOpen = nowSeconds - LOCKOUT_WINDOW_SECONDS;
  for (let attempt = 1; ; attempt++) {
    let count: AttemptCount | undefined;
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'ADD failures :one',
          ConditionExpression: 'window_start > :windowOpen AND failures < :max',
          ExpressionAttributeValues: { ':one': 1, ':windowOpen': windowOpen, ':max': MAX_FAILURES },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const old = (error as { Item?: Record<string, never> }).Item;
      count = old ? (unmarshall(old) as AttemptCount) : undefined;
    }
    const state = lockoutState(count && { failures: Number(count.failures), window_start: Number(count.window_start) }, nowSeconds);
    if (state.state === 'locked') throw locked(state.retryAfter);
    // No window open (or one opened since): this attempt starts one — unless a racing attempt just did.
    if (state.state === 'no-window') {
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
              ':windowOpen': windowOpen,
            },
          }),
        );
        return;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    // Lost a race with an attempt that opened the window: counted in that window now. Losing every
    // time (never in practice) refuses the attempt: a check not reserved is never run.
    if (attempt >= RESERVE_ATTEMPTS) throw locked(1);
  }
}

/** A successful login clears the count. */
export async function clearFailures(tenant: Tenant, email: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: keyOf(tenant, email) }));
}

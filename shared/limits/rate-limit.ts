/**
 * Per-tenant request counting shared by every Lambda instance: one atomic, conditional ADD per
 * window item, so concurrent requests can never let more than the limit through, and a refused
 * request changes nothing (an hourly refusal gives back the minute slot it took).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../auth/principal';
import { dynamo } from '../clients/dynamodb';
import { tenantKeys } from '../db/keys';
import { isConditionFailure, tableName } from '../db/table';
import { retryAfterSeconds, windowAt, type LimitState, type Window } from './windows';

export interface Limits {
  perMinute: number;
  perHour?: number;
}

export type RateDecision = { allowed: true; state: LimitState } | { allowed: false; state: LimitState; retryAfter: number };

/** Returns the count after this request, or undefined when the window is already full. */
async function take(tenant: Tenant, window: Window, limit: number): Promise<number | undefined> {
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tenantKeys.rateWindow(tenant, window.kind, window.start),
        UpdateExpression: 'ADD hits :one SET expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': window.reset + 120 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.hits);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

async function giveBack(tenant: Tenant, window: Window): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: tenantKeys.rateWindow(tenant, window.kind, window.start),
      UpdateExpression: 'ADD hits :minus',
      ExpressionAttributeValues: { ':minus': -1 },
    }),
  );
}

export async function consumeRequest(tenant: Tenant, limits: Limits, nowMs = Date.now()): Promise<RateDecision> {
  const minute = windowAt('minute', nowMs);
  const minuteHits = await take(tenant, minute, limits.perMinute);
  if (minuteHits === undefined) {
    return { allowed: false, state: { limit: limits.perMinute, remaining: 0, reset: minute.reset }, retryAfter: retryAfterSeconds(minute, nowMs) };
  }
  const minuteState: LimitState = { limit: limits.perMinute, remaining: limits.perMinute - minuteHits, reset: minute.reset };
  if (!limits.perHour) return { allowed: true, state: minuteState };

  const hour = windowAt('hour', nowMs);
  const hourHits = await take(tenant, hour, limits.perHour);
  if (hourHits === undefined) {
    await giveBack(tenant, minute);
    return { allowed: false, state: { limit: limits.perHour, remaining: 0, reset: hour.reset }, retryAfter: retryAfterSeconds(hour, nowMs) };
  }
  const hourState: LimitState = { limit: limits.perHour, remaining: limits.perHour - hourHits, reset: hour.reset };
  // The headers describe whichever window is closer to refusing.
  return { allowed: true, state: hourState.remaining < minuteState.remaining ? hourState : minuteState };
}

/** The minute window's state without counting (for refusals that must not spend the quota). */
export async function peekRequest(tenant: Tenant, limits: Limits, nowMs = Date.now()): Promise<LimitState> {
  const minute = windowAt('minute', nowMs);
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: tenantKeys.rateWindow(tenant, 'minute', minute.start), ProjectionExpression: 'hits' }),
  );
  return { limit: limits.perMinute, remaining: limits.perMinute - Number(result.Item?.hits ?? 0), reset: minute.reset };
}

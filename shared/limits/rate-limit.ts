/**
 * Per-tenant request counting shared by every Lambda instance, without a DynamoDB write per
 * request: each instance reserves small blocks of the window's quota with one conditional atomic
 * `ADD` on the window's counter item and hands them out locally. So
 *  - concurrent requests on any number of instances never get more than the limit through
 *    (reservations are conditional on the global count);
 *  - most requests need no DynamoDB call at all (one per block: 1/5 of a starter's requests,
 *    1/50 of an enterprise's), which keeps the request path at one DynamoDB call;
 *  - a refused request changes nothing (an hourly refusal hands its minute token back).
 * The price: tokens an instance reserved but did not use by the end of the window are lost, so
 * with several busy instances a few requests may be refused just before the exact limit.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys } from '#shared/db/keys';
import { isConditionFailure, tableName } from '#shared/db/table';
import { retryAfterSeconds, windowAt, type LimitState, type Window } from './windows';

export interface Limits {
  perMinute: number;
  perHour?: number;
}

export type RateDecision = { allowed: true; state: LimitState } | { allowed: false; state: LimitState; retryAfter: number };

/** Tokens reserved per DynamoDB call: a twentieth of the limit, between 1 and 50. */
export const blockSize = (limit: number): number => Math.max(1, Math.min(50, Math.floor(limit / 20)));

interface Pool {
  windowStart: number;
  /** Tokens reserved by this instance and not yet used. */
  available: number;
  /** The window's global count right after this instance's last reservation. */
  globalHits: number;
  exhausted: boolean;
  reserving?: Promise<void>;
}

const pools = new Map<string, Pool>();

function poolFor(tenant: Tenant, window: Window): Pool {
  const key = `${tenant.accountId}#${tenant.mode}#${window.kind}`;
  let pool = pools.get(key);
  if (!pool || pool.windowStart !== window.start) {
    if (pools.size > 5000) pools.clear(); // bounded memory on long-lived instances
    pool = { windowStart: window.start, available: 0, globalHits: 0, exhausted: false };
    pools.set(key, pool);
  }
  return pool;
}

/** Reserves up to `size` tokens; fewer when the window is nearly full, none when it is full. */
async function reserve(tenant: Tenant, window: Window, limit: number, pool: Pool, size: number): Promise<void> {
  for (let wanted = Math.min(size, limit); wanted > 0;) {
    try {
      const result = await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: tenantKeys.rateWindow(tenant, window.kind, window.start),
          UpdateExpression: 'ADD hits :n SET expires_at = :expires',
          ConditionExpression: 'attribute_not_exists(hits) OR hits <= :ceiling',
          ExpressionAttributeValues: { ':n': wanted, ':ceiling': limit - wanted, ':expires': window.reset + 120 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      pool.globalHits = Number(result.Attributes?.hits);
      pool.available += wanted;
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Not enough left for a whole block: find out how much is left and take exactly that.
      const current = await readHits(tenant, window);
      wanted = Math.min(wanted - 1, limit - current);
    }
  }
  pool.exhausted = true;
}

async function readHits(tenant: Tenant, window: Window): Promise<number> {
  const result = await dynamo().send(
    new GetCommand({
      TableName: tableName(),
      Key: tenantKeys.rateWindow(tenant, window.kind, window.start),
      ProjectionExpression: 'hits',
      ConsistentRead: true,
    }),
  );
  return Number(result.Item?.hits ?? 0);
}

/** Takes one token of the window; `remaining` is what the headers show. */
async function take(tenant: Tenant, window: Window, limit: number): Promise<{ allowed: boolean; remaining: number; giveBack: () => void }> {
  const pool = poolFor(tenant, window);
  for (;;) {
    if (pool.available > 0) {
      pool.available--;
      return { allowed: true, remaining: limit - pool.globalHits + pool.available, giveBack: () => void pool.available++ };
    }
    if (pool.exhausted) return { allowed: false, remaining: 0, giveBack: () => undefined };
    // One reservation at a time per instance; everyone else waits for it and then tries again.
    pool.reserving ??= reserve(tenant, window, limit, pool, blockSize(limit)).finally(() => {
      pool.reserving = undefined;
    });
    await pool.reserving;
  }
}

export async function consumeRequest(tenant: Tenant, limits: Limits, nowMs = Date.now()): Promise<RateDecision> {
  const minute = windowAt('minute', nowMs);
  const minuteToken = await take(tenant, minute, limits.perMinute);
  const minuteState: LimitState = { limit: limits.perMinute, remaining: minuteToken.remaining, reset: minute.reset };
  if (!minuteToken.allowed) return { allowed: false, state: minuteState, retryAfter: retryAfterSeconds(minute, nowMs) };
  if (!limits.perHour) return { allowed: true, state: minuteState };

  const hour = windowAt('hour', nowMs);
  const hourToken = await take(tenant, hour, limits.perHour);
  if (!hourToken.allowed) {
    minuteToken.giveBack();
    return {
      allowed: false,
      state: { limit: limits.perHour, remaining: 0, reset: hour.reset },
      retryAfter: retryAfterSeconds(hour, nowMs),
    };
  }
  const hourState: LimitState = { limit: limits.perHour, remaining: hourToken.remaining, reset: hour.reset };
  // The headers describe whichever window is closer to refusing.
  return { allowed: true, state: hourState.remaining < minuteState.remaining ? hourState : minuteState };
}

/** The minute window's state without counting (for refusals that must not spend the quota). */
export async function peekRequest(tenant: Tenant, limits: Limits, nowMs = Date.now()): Promise<LimitState> {
  const minute = windowAt('minute', nowMs);
  const pool = pools.get(`${tenant.accountId}#${tenant.mode}#minute`);
  const used = pool && pool.windowStart === minute.start ? pool.globalHits - pool.available : await readHits(tenant, minute);
  return { limit: limits.perMinute, remaining: Math.max(0, limits.perMinute - used), reset: minute.reset };
}

/**
 * Per-quota request counting shared by every Lambda instance, without a DynamoDB write per
 * request: each instance reserves tokens of the window's quota with one conditional atomic `ADD`
 * on the window's counter item and hands them out locally. So
 *  - concurrent requests on any number of instances never get more than the limit through
 *    (reservations are conditional on the global count);
 *  - a reservation is sized from the demand and from what remains (`reservationSize`): an
 *    instance's first reservation in a window takes only the requests it has waiting, so a burst
 *    spread over many instances is served in full; an instance that keeps getting requests takes
 *    a head start that doubles with each block it used up, at most a tenth of what remains
 *    (and 50) — which shrinks toward one token as the window fills;
 *  - most requests of a busy instance need no DynamoDB call at all (one per block);
 *  - a refused request changes nothing (an hourly refusal hands its minute token back).
 * What it costs: a head start an instance took and could not use before the window ended is lost
 * (at most a tenth of what remained when it was taken). See docs/platform.md.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys } from '#shared/db/keys';
import { isConditionFailure, tableName } from '#shared/db/table';
import type { Quota } from './quota';
import { retryAfterSeconds, windowAt, type LimitState, type Window } from './windows';

export type { Limits, Quota } from './quota';

export type RateDecision = { allowed: true; state: LimitState } | { allowed: false; state: LimitState; retryAfter: number };

/** The largest reservation: one DynamoDB call per 50 requests at best. */
export const MAX_BLOCK = 50;
/** A head start takes at most this fraction of what remains of the window (1/10). */
const HEAD_START_SHARE = 10;

/**
 * How many tokens to reserve: the requests waiting for one (`demand`), or — for an instance that
 * used up its previous block of this window (`lastBlock` > 0) — a head start of twice that block,
 * at most a tenth of what remains and at most MAX_BLOCK; never more than remains. So the
 * first reservation of a window is exactly the demand, and near the end of the quota a
 * reservation is exactly the demand again (one token per request on Lambda).
 */
export function reservationSize(input: { limit: number; hits: number; demand: number; lastBlock: number }): number {
  const remaining = input.limit - input.hits;
  if (remaining <= 0) return 0;
  const headStart = input.lastBlock > 0 ? Math.min(MAX_BLOCK, input.lastBlock * 2, Math.floor(remaining / HEAD_START_SHARE)) : 0;
  return Math.min(remaining, Math.max(1, input.demand, headStart));
}

interface Pool {
  windowStart: number;
  /** Tokens reserved by this instance and not yet used. */
  available: number;
  /** The window's global count as last seen (after this instance's last reservation or read). */
  globalHits: number;
  /** The size of this instance's last reservation in this window (0: none yet). */
  lastBlock: number;
  /** Requests of this instance waiting for a token. */
  waiting: number;
  exhausted: boolean;
  reserving?: Promise<void>;
}

export interface RateLimiter {
  /** Counts one request against its quota (minute, then the hourly cap if any). */
  consume(quota: Quota, nowMs?: number): Promise<RateDecision>;
  /** The minute window's state without counting (for refusals that must not spend the quota). */
  peek(quota: Quota, nowMs?: number): Promise<LimitState>;
}

const windowKey = (quota: Quota, window: Window) =>
  tenantKeys.rateWindow(quota.tenant, window.kind, window.start, quota.holder.kind === 'account' ? undefined : quota.holder);

async function readHits(quota: Quota, window: Window): Promise<number> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: windowKey(quota, window), ProjectionExpression: 'hits', ConsistentRead: true }),
  );
  return Number(result.Item?.hits ?? 0);
}

/**
 * One limiter: the pools of one Lambda instance. The handlers use the module's own
 * (`consumeRequest`); tests create several to stand for several instances.
 */
export function createRateLimiter(): RateLimiter {
  const pools = new Map<string, Pool>();

  const poolKey = (quota: Quota, kind: Window['kind']) => {
    const { holder: quotaHolder } = quota;
    const holder =
      quotaHolder.kind === 'publishable'
        ? `${quotaHolder.keyId}#${quotaHolder.client}`
        : quotaHolder.kind === 'customer'
          ? `customer:${quotaHolder.customerId}`
          : '';
    return `${quota.tenant.accountId}#${quota.tenant.mode}#${holder}#${kind}`;
  };

  function poolFor(quota: Quota, window: Window): Pool {
    const key = poolKey(quota, window.kind);
    let pool = pools.get(key);
    if (!pool || pool.windowStart !== window.start) {
      if (pools.size > 5000) pools.clear(); // bounded memory on long-lived instances
      pool = { windowStart: window.start, available: 0, globalHits: 0, lastBlock: 0, waiting: 0, exhausted: false };
      pools.set(key, pool);
    }
    return pool;
  }

  /** Reserves tokens for the waiting requests (and a head start); marks the pool exhausted when none are left. */
  async function reserve(quota: Quota, window: Window, limit: number, pool: Pool): Promise<void> {
    // Requests that arrive together (in the same tick) join one reservation.
    await Promise.resolve();
    let wanted = reservationSize({ limit, hits: pool.globalHits, demand: pool.waiting, lastBlock: pool.lastBlock });
    while (wanted > 0) {
      try {
        const result = await dynamo().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: windowKey(quota, window),
            UpdateExpression: 'ADD hits :n SET expires_at = :expires',
            ConditionExpression: 'attribute_not_exists(hits) OR hits <= :ceiling',
            ExpressionAttributeValues: { ':n': wanted, ':ceiling': limit - wanted, ':expires': window.reset + 120 },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        pool.globalHits = Number(result.Attributes?.hits);
        pool.available += wanted;
        pool.lastBlock = wanted;
        return;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        // Less left than asked for: take exactly what the waiting requests need of what is left.
        // (Each failed condition means another instance reserved meanwhile, so this ends.)
        pool.globalHits = await readHits(quota, window);
        wanted = Math.min(pool.waiting, limit - pool.globalHits);
      }
    }
    pool.exhausted = true;
  }

  /** Takes one token of the window: the pool it came from, or undefined when the window is used up. */
  async function take(quota: Quota, window: Window, limit: number): Promise<Pool | undefined> {
    const pool = poolFor(quota, window);
    pool.waiting++;
    try {
      for (;;) {
        if (pool.available > 0) {
          pool.available--;
          return pool;
        }
        if (pool.exhausted) return undefined;
        // One reservation at a time per instance; everyone else waits for it and then tries again.
        pool.reserving ??= reserve(quota, window, limit, pool).finally(() => {
          pool.reserving = undefined;
        });
        await pool.reserving;
      }
    } finally {
      pool.waiting--;
    }
  }

  /** What the headers show: the window's quota left, as this instance knows it (never negative). */
  const stateOf = (pool: Pool | undefined, limit: number, window: Window): LimitState => ({
    limit,
    remaining: pool ? Math.max(0, limit - pool.globalHits + pool.available) : 0,
    reset: window.reset,
  });

  return {
    async consume(quota, nowMs = Date.now()) {
      const { limits } = quota;
      const minute = windowAt('minute', nowMs);
      const minutePool = await take(quota, minute, limits.perMinute);
      const minuteState = stateOf(minutePool, limits.perMinute, minute);
      if (!minutePool) return { allowed: false, state: minuteState, retryAfter: retryAfterSeconds(minute, nowMs) };
      if (!limits.perHour) return { allowed: true, state: minuteState };

      const hour = windowAt('hour', nowMs);
      const hourPool = await take(quota, hour, limits.perHour);
      const hourState = stateOf(hourPool, limits.perHour, hour);
      if (!hourPool) {
        minutePool.available++; // the minute's token goes back: a refused request changes nothing
        return { allowed: false, state: hourState, retryAfter: retryAfterSeconds(hour, nowMs) };
      }
      // The headers describe whichever window is closer to refusing.
      return { allowed: true, state: hourState.remaining < minuteState.remaining ? hourState : minuteState };
    },

    async peek(quota, nowMs = Date.now()) {
      // Only refusals that must not count ask this (an IP outside the allowlist): one read.
      const minute = windowAt('minute', nowMs);
      const used = await readHits(quota, minute);
      return { limit: quota.limits.perMinute, remaining: Math.max(0, quota.limits.perMinute - used), reset: minute.reset };
    },
  };
}

/** This Lambda instance's limiter: `consumeRequest` counts one request against its quota, `peekRequest` only reads. */
export const { consume: consumeRequest, peek: peekRequest } = createRateLimiter();

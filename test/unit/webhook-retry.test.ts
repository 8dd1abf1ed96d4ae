import { describe, expect, it } from 'vitest';
import { deliveryIdFor, DELIVERY_ID_PATTERN } from '#shared/webhooks/delivery-id';
import {
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  delayAfter,
  MAX_VISIBILITY_SECONDS,
  maxAttempts,
  parseRetrySchedule,
  receivesFor,
  retrySchedule,
  visibilityFor,
} from '#shared/webhooks/retry-schedule';
import { queues } from '#shared/resources';
import { matchesFilter, workers } from '#shared/workers';

describe('the retry schedule', () => {
  it('defaults to about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h: 8 attempts', () => {
    expect(DEFAULT_RETRY_SCHEDULE_SECONDS).toEqual([60, 300, 1800, 7200, 21600, 43200, 86400]);
    expect(maxAttempts(DEFAULT_RETRY_SCHEDULE_SECONDS)).toBe(8);
    expect(retrySchedule({})).toEqual(DEFAULT_RETRY_SCHEDULE_SECONDS);
  });

  it('is configurable with WEBHOOK_RETRY_SCHEDULE, in seconds or with units', () => {
    expect(retrySchedule({ WEBHOOK_RETRY_SCHEDULE: '1,1,1' })).toEqual([1, 1, 1]);
    expect(parseRetrySchedule('1m, 5m,2h,30s')).toEqual([60, 300, 7200, 30]);
    for (const bad of ['', 'x', '0', '1,,2', '-5', '1.5', '8d', '999999h'])
      expect(() => parseRetrySchedule(bad), bad).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('says what follows each attempt of a chain', () => {
    const schedule = [1, 2, 3];
    expect([1, 2, 3, 4].map((attempt) => delayAfter(schedule, attempt))).toEqual([1, 2, 3, undefined]);
  });

  it('splits waits longer than the 12 h visibility cap into hops', () => {
    expect(visibilityFor(60)).toBe(60);
    expect(visibilityFor(0.2)).toBe(1);
    expect(visibilityFor(86400)).toBe(MAX_VISIBILITY_SECONDS);
    expect(MAX_VISIBILITY_SECONDS).toBeLessThanOrEqual(43200);
    // 24 h: 43,000 s, then 43,000 s, then the remaining 400 s — three receives.
    expect(visibilityFor(86400 - MAX_VISIBILITY_SECONDS)).toBe(MAX_VISIBILITY_SECONDS);
    expect(visibilityFor(86400 - 2 * MAX_VISIBILITY_SECONDS)).toBe(400);
  });

  it('fits the deliveries queue: retention outlives the schedule, redrive sits above the receives a chain needs', () => {
    const total = DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((sum, step) => sum + step, 0);
    expect(queues.deliveries.retentionSeconds).toBeGreaterThan(total + 3600);
    expect(receivesFor(DEFAULT_RETRY_SCHEDULE_SECONDS)).toBe(11);
    expect(queues.deliveries.deadLetter.maxReceiveCount).toBeGreaterThanOrEqual(receivesFor(DEFAULT_RETRY_SCHEDULE_SECONDS) + 5);
  });

  it('gives the deliveries queue a visibility timeout of at least 6x its worker timeout', () => {
    const worker = workers.find((candidate) => candidate.source.kind === 'queue' && candidate.source.queue === 'deliveries')!;
    expect(queues.deliveries.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * worker.timeoutSeconds);
  });
});

describe('delivery ids', () => {
  const tenant = { accountId: 'acct_1', mode: 'live' as const };
  const eventId = 'evt_0dYc3K2aXXXXXXXXXXXXXX';

  it('are deterministic per (event, registration), so a replayed stream record maps to the same delivery', () => {
    expect(deliveryIdFor(eventId, tenant, 1)).toBe(deliveryIdFor(eventId, tenant, 1));
    expect(deliveryIdFor(eventId, tenant, 1)).toMatch(DELIVERY_ID_PATTERN);
  });

  it('differ per registration, event and tenant', () => {
    const ids = new Set([
      deliveryIdFor(eventId, tenant, 1),
      deliveryIdFor(eventId, tenant, 2),
      deliveryIdFor('evt_0dYc3K2aYYYYYYYYYYYYYY', tenant, 1),
      deliveryIdFor(eventId, { ...tenant, mode: 'test' }, 1),
      deliveryIdFor(eventId, { accountId: 'acct_2', mode: 'live' }, 1),
    ]);
    expect(ids.size).toBe(5);
  });

  it('sort by event time (the history lists newest first from them)', () => {
    const older = deliveryIdFor('evt_0dYc3K2aZZZZZZZZZZZZZZ', tenant, 9);
    const newer = deliveryIdFor('evt_0dYc3K2bAAAAAAAAAAAAAA', tenant, 1);
    expect(older.slice(0, 11)).toBe('wh_0dYc3K2a');
    expect(newer > older).toBe(true);
  });
});

describe('the stream router filter', () => {
  const router = workers.find((worker) => worker.id === 'EventRouter')!;
  const filter = router.source.kind === 'table-stream' ? router.source.filter : {};
  const record = (eventName: string, entity: string) => ({ eventName, dynamodb: { NewImage: { entity: { S: entity } } } });

  it('passes only inserts of events and redelivery requests', () => {
    expect(matchesFilter(filter, record('INSERT', 'EVENT'))).toBe(true);
    expect(matchesFilter(filter, record('INSERT', 'DELIVERY_REQUEST'))).toBe(true);
    expect(matchesFilter(filter, record('MODIFY', 'EVENT'))).toBe(false);
    expect(matchesFilter(filter, record('REMOVE', 'EVENT'))).toBe(false);
    expect(matchesFilter(filter, record('INSERT', 'CUSTOMER'))).toBe(false);
    expect(matchesFilter(filter, { eventName: 'INSERT', dynamodb: {} })).toBe(false);
  });
});

/**
 * The local stream poller's batch runner decides retries the way a stream event source mapping
 * does on AWS, from the same worker definition (shared/workers.ts): the router's batches are
 * retried until their records are 24 h old — never given up after a fixed number of retries —
 * and a record older than that is given up without an invocation.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { batchRunner, oldestAgeSeconds, shouldRetry } from '#local-aws/stream-poller';
import { workers, type StreamSource } from '#shared/workers';
import { streamRecord } from '#test/support/lambda-events';

const router = workers.find((worker) => worker.id === 'EventRouter')!.source as StreamSource;
const NOW = Date.parse('2026-11-21T12:00:00Z');

/** `count` stream records created `ageSeconds` before NOW, numbered by sequence. */
const records = (count: number, ageSeconds = 0): DynamoDBRecord[] =>
  Array.from({ length: count }, (_, index) =>
    streamRecord({ dynamodb: { ApproximateCreationDateTime: NOW / 1000 - ageSeconds, SequenceNumber: String(index + 1) } }),
  );

function runner(
  source: Pick<StreamSource, 'retryAttempts' | 'maxRecordAgeSeconds' | 'bisectBatchOnError'>,
  invoke: (records: DynamoDBRecord[]) => Promise<void>,
) {
  const failures: Record<string, unknown>[] = [];
  let now = NOW;
  const run = batchRunner({
    name: 'test',
    source,
    invoke: (event) => invoke(event.Records),
    onFailure: async (failure) => void failures.push(failure),
    streamArn: 'arn:stream',
    signal: new AbortController().signal,
    // Each retry waits a minute of the test's clock (and no real time).
    backoffMs: () => ((now += 60_000), 0),
    now: () => now,
    log: () => undefined,
  });
  return { run, failures, elapsedSeconds: () => (now - NOW) / 1000 };
}

describe('the retry decision', () => {
  it("retries the router's failing batches without a count, only until their records are 24 h old", () => {
    expect(router).toMatchObject({ retryAttempts: -1, maxRecordAgeSeconds: 24 * 3600, bisectBatchOnError: true });
    expect(shouldRetry(router, 10, 60)).toBe(true);
    expect(shouldRetry(router, 100_000, 23 * 3600)).toBe(true);
    expect(shouldRetry(router, 0, 24 * 3600)).toBe(false);
  });

  it('bounds the retries of a source with a count', () => {
    const bounded = { retryAttempts: 10, maxRecordAgeSeconds: 3600 };
    expect(shouldRetry(bounded, 9, 0)).toBe(true);
    expect(shouldRetry(bounded, 10, 0)).toBe(false);
    expect(shouldRetry(bounded, 0, 3600)).toBe(false);
  });

  it("measures a batch by its oldest record's creation time", () => {
    const mixed = [...records(1, 30), ...records(1, 90)];
    expect(oldestAgeSeconds(mixed, NOW)).toBe(90);
    expect(oldestAgeSeconds([], NOW)).toBe(0);
  });
});

describe('the batch runner', () => {
  it('keeps retrying the router through an outage of hours, and gives nothing up once it ends', async () => {
    let calls = 0;
    const { run, failures, elapsedSeconds } = runner(router, async () => {
      if (++calls <= 300) throw new Error('SQS is unreachable');
    });
    await run(records(4));
    expect(failures).toEqual([]);
    expect(elapsedSeconds()).toBeGreaterThan(4 * 3600);
  });

  it('would have given up after 10 retries with the old bounded setting (the bug this replaces)', async () => {
    let calls = 0;
    const { run, failures } = runner({ ...router, retryAttempts: 10 }, async () => {
      if (++calls <= 300) throw new Error('SQS is unreachable');
    });
    await run(records(1));
    expect(failures).toHaveLength(1);
  });

  it('gives a record up to the on-failure queue once it is older than the maximum age', async () => {
    const invoke = vi.fn(async () => {
      throw new Error('poison');
    });
    const { run, failures, elapsedSeconds } = runner({ ...router, maxRecordAgeSeconds: 3600 }, invoke);
    await run(records(1));
    expect(failures).toEqual([
      expect.objectContaining({ streamArn: 'arn:stream', batchSize: 1, firstSequenceNumber: '1', reason: 'Error: poison' }),
    ]);
    expect(elapsedSeconds()).toBe(3600);
  });

  it('does not invoke at all for records already older than the maximum age', async () => {
    const invoke = vi.fn(async () => undefined);
    const { run, failures } = runner(router, invoke);
    await run(records(3, 24 * 3600 + 1));
    expect(invoke).not.toHaveBeenCalled();
    expect(failures).toEqual([expect.objectContaining({ batchSize: 3, firstSequenceNumber: '1', lastSequenceNumber: '3' })]);
  });

  it('bisects a failing batch down to the failing record and lets the others through (with a bounded source)', async () => {
    const handled: string[] = [];
    const { run, failures } = runner({ ...router, retryAttempts: 2 }, async (batch) => {
      if (batch.some((record) => record.dynamodb?.SequenceNumber === '3')) throw new Error('poison');
      handled.push(...batch.map((record) => record.dynamodb!.SequenceNumber!));
    });
    await run(records(5));
    expect(handled.sort()).toEqual(['1', '2', '4', '5']);
    expect(failures).toEqual([expect.objectContaining({ firstSequenceNumber: '3', batchSize: 1 })]);
  });
});

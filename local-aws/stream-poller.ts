/**
 * The local stand-in for a DynamoDB stream event source mapping: reads the table's stream from
 * DynamoDB Local (DescribeStream / GetShardIterator / GetRecords), keeps the records the worker's
 * filter pattern matches, and invokes the handler with real DynamoDBStreamEvent batches.
 *
 * Like the mapping on AWS: shards are read in order, a child shard only after its parent is
 * finished; a failing batch is bisected and a single failing record retried — `retryAttempts`
 * times, or with -1 until it is `maxRecordAgeSeconds` old — then described on the on-failure
 * queue and skipped; a record already older than that is not handled at all (`batchRunner`).
 * New shards (DynamoDB Local rolls them over) are found by describing the stream again. Starts at
 * TRIM_HORIZON: after a restart the last 24 h are routed again, which the router's idempotence
 * makes harmless and which re-enqueues deliveries whose messages the in-memory SQS emulator lost
 * (older ones are the delivery sweeper's).
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { matchesFilter, type StreamSource } from '#shared/workers';
import { withoutSdkLogging } from '#shared/clients/quiet';
import { localClientConfig } from './clients';
import { pause } from './lambda-context';
import { PauseGate, pollerHandle } from './pause-gate';

export interface StreamPollerOptions {
  name: string;
  tableName: string;
  endpoint: string;
  source: StreamSource;
  invoke(event: DynamoDBStreamEvent): Promise<unknown>;
  /** Where a batch goes that still fails after its retries (AWS: the mapping's on-failure destination). */
  onFailure(record: Record<string, unknown>): Promise<void>;
  pollIntervalMs?: number;
}

export interface Poller {
  /** Resolves once the current invocation (if any) has finished. Idempotent. */
  stop(): Promise<void>;
  /** Stops reading new batches; resolves once the batches being handled have finished (see pause-gate.ts). */
  pause(): Promise<void>;
  /** Goes on reading where it stopped. */
  resume(): void;
}

/**
 * Whether a failed batch is tried again, as Lambda's stream mappings decide: not once its oldest
 * record is `maxRecordAgeSeconds` old, and with `retryAttempts` ≥ 0 not after that many retries
 * (-1: no bound but the age). `retries` counts the retries made so far.
 */
export function shouldRetry(
  source: Pick<StreamSource, 'retryAttempts' | 'maxRecordAgeSeconds'>,
  retries: number,
  ageSeconds: number,
): boolean {
  if (ageSeconds >= source.maxRecordAgeSeconds) return false;
  return source.retryAttempts < 0 || retries < source.retryAttempts;
}

/** Age in seconds of a batch's oldest record (ApproximateCreationDateTime is in epoch seconds). */
export function oldestAgeSeconds(records: readonly DynamoDBRecord[], nowMs: number): number {
  const created = records.map((record) => record.dynamodb?.ApproximateCreationDateTime).filter((value) => typeof value === 'number');
  return created.length ? nowMs / 1000 - Math.min(...created) : 0;
}

export interface BatchRunnerOptions {
  name: string;
  source: Pick<StreamSource, 'retryAttempts' | 'maxRecordAgeSeconds' | 'bisectBatchOnError'>;
  invoke(event: DynamoDBStreamEvent): Promise<unknown>;
  onFailure(record: Record<string, unknown>): Promise<void>;
  streamArn: string;
  signal: AbortSignal;
  /** Pause before retry number `retry` (default: 100 ms doubling up to 5 s). */
  backoffMs?: (retry: number) => number;
  now?: () => number;
  /** Where retries and give-ups are reported (default: stderr, prefixed with the name). */
  log?: (message: string, error?: unknown) => void;
}

const log = (name: string, message: string, error?: unknown) => console.error(`[${name}] ${message}`, error ?? '');

/**
 * Runs one batch the way a stream event source mapping does: invoke; on failure bisect (if
 * configured) down to the failing record and retry that one while `shouldRetry` says so, with a
 * growing pause; then describe it on the on-failure queue and go on. A batch whose records are
 * already older than the maximum age goes to the on-failure queue without an invocation.
 * Resolves once the batch is handled or given up — the shard waits, in order, meanwhile.
 */
export function batchRunner(options: BatchRunnerOptions): (records: DynamoDBRecord[]) => Promise<void> {
  const now = options.now ?? Date.now;
  const report = options.log ?? ((message: string, error?: unknown) => log(options.name, message, error));
  const backoff = options.backoffMs ?? ((retry: number) => Math.min(5000, 100 * 2 ** Math.min(retry, 10)));
  const giveUp = async (records: DynamoDBRecord[], reason: string) => {
    const sequences = records.map((record) => record.dynamodb?.SequenceNumber);
    await options
      .onFailure({
        streamArn: options.streamArn,
        reason,
        firstSequenceNumber: sequences[0],
        lastSequenceNumber: sequences.at(-1),
        batchSize: records.length,
      })
      .catch((failure: unknown) => report('could not write to the on-failure queue', failure));
  };
  const run = async (records: DynamoDBRecord[]): Promise<void> => {
    const { source } = options;
    if (oldestAgeSeconds(records, now()) >= source.maxRecordAgeSeconds) {
      report(`${records.length} record(s) older than ${source.maxRecordAgeSeconds} s; described on the on-failure queue`);
      return giveUp(records, 'record age exceeded the maximum');
    }
    for (let retries = 0; ; retries++) {
      try {
        await options.invoke({ Records: records });
        return;
      } catch (error) {
        if (records.length > 1 && source.bisectBatchOnError) {
          const middle = Math.ceil(records.length / 2);
          await run(records.slice(0, middle));
          await run(records.slice(middle));
          return;
        }
        if (!shouldRetry(source, retries, oldestAgeSeconds(records, now())) || options.signal.aborted) {
          report(`giving up on ${records.length} record(s) after ${retries + 1} attempts; described on the on-failure queue`, error);
          return giveUp(records, String(error));
        }
        // Retried without bound (until the record's maximum age): say so now and then, not on every attempt.
        if ((retries & (retries + 1)) === 0) report(`invocation failed (attempt ${retries + 1}); retrying`, error);
        await pause(backoff(retries), options.signal);
      }
    }
  };
  return run;
}

interface ShardState {
  id: string;
  parentId?: string;
  iterator?: string;
  lastSequence?: string;
  finished: boolean;
}

/** Lambda's record format: ApproximateCreationDateTime in epoch seconds, the stream ARN alongside. */
function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  return {
    ...record,
    eventSourceARN: streamArn,
    dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: created ? Math.floor(new Date(created).getTime() / 1000) : undefined },
  } as DynamoDBRecord;
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<Poller> {
  const config = localClientConfig(options.endpoint);
  const dynamodb = new DynamoDBClient(config);
  const streams = new DynamoDBStreamsClient(config);
  // For GetRecords (up to 1,000 records with both images) the logger middleware's walk was a
  // visible share of the runner's CPU (shared/clients/quiet.ts).
  withoutSdkLogging(streams);
  const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: options.tableName }));
  dynamodb.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`${options.name}: table ${options.tableName} has no stream`);

  const abort = new AbortController();
  const gate = new PauseGate(1, abort.signal);
  const shards = new Map<string, ShardState>();
  const interval = options.pollIntervalMs ?? 200;

  async function refreshShards(): Promise<void> {
    let start: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
      for (const shard of StreamDescription?.Shards ?? ([] as Shard[])) {
        if (shard.ShardId && !shards.has(shard.ShardId)) {
          shards.set(shard.ShardId, { id: shard.ShardId, parentId: shard.ParentShardId, finished: false });
        }
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
  }

  /** A parent that is known and unfinished goes first (records of one item stay in order). */
  const ready = (shard: ShardState) => !shard.finished && !(shard.parentId && shards.get(shard.parentId)?.finished === false);

  const invokeWithRetries = batchRunner({
    name: options.name,
    source: options.source,
    invoke: options.invoke,
    onFailure: options.onFailure,
    streamArn,
    signal: abort.signal,
  });

  /** One GetRecords on a shard; true when it returned records (so the loop polls again at once). */
  async function pollShard(shard: ShardState): Promise<boolean> {
    if (!shard.iterator) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.id,
          ShardIteratorType: shard.lastSequence ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
          SequenceNumber: shard.lastSequence,
        }),
      );
      shard.iterator = ShardIterator;
    }
    let result;
    try {
      result = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: 1000 }));
    } catch (error) {
      // Expired or trimmed iterators: start again after the last record handled.
      if (/ExpiredIterator|TrimmedDataAccess/.test((error as Error).name)) {
        shard.iterator = undefined;
        return false;
      }
      throw error;
    }
    const records = (result.Records ?? []).map((record) => toLambdaRecord(record, streamArn!));
    const matching = records.filter((record) => matchesFilter(options.source.filter, record));
    for (let start = 0; start < matching.length && !abort.signal.aborted; start += options.source.batchSize) {
      await invokeWithRetries(matching.slice(start, start + options.source.batchSize));
    }
    if (records.length) shard.lastSequence = records.at(-1)!.dynamodb?.SequenceNumber;
    shard.iterator = result.NextShardIterator;
    if (!shard.iterator) shard.finished = true; // closed shard fully read
    return records.length > 0;
  }

  async function loop(): Promise<void> {
    let lastRefresh = 0;
    while (!abort.signal.aborted) {
      await gate.pass();
      if (abort.signal.aborted) break;
      try {
        if (Date.now() - lastRefresh > 1000 || [...shards.values()].every((shard) => shard.finished)) {
          await refreshShards();
          lastRefresh = Date.now();
        }
        let busy = false;
        for (const shard of shards.values()) {
          if (abort.signal.aborted) break;
          if (ready(shard)) busy = (await pollShard(shard)) || busy;
        }
        if (!busy) await pause(interval, abort.signal);
      } catch (error) {
        if (abort.signal.aborted) break;
        log(options.name, 'polling failed; retrying in 1 s', error);
        await pause(1000, abort.signal);
      }
    }
  }

  return pollerHandle(gate, abort, loop(), () => streams.destroy());
}

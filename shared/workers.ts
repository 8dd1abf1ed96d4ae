/**
 * The worker table: the functions that are not behind the API but fed by the table's stream, a
 * queue or a schedule. Like the route table it is the single source of truth: CDK (infra/workers.ts) builds the
 * functions, event source mappings, schedules and grants from it, and the local runtime
 * (local-aws/workers.ts) runs the same handler modules with a stream poller, queue pollers and
 * timers configured from the same entries.
 *
 * Plain data on purpose: no AWS construct types here.
 */

/** Queues by their key: `deliveries` and `deliveriesDlq` from `queues`, `routerFailures` and `preflightFailures` from `holdingQueues`. */
export type QueueRef = 'deliveries' | 'deliveriesDlq' | 'routerFailures' | 'preflightFailures';

/**
 * Lambda event filter pattern (the JSON syntax of event source mapping filter criteria). Only
 * the subset used here: nested objects whose leaves are lists of allowed exact values, or
 * `{ exists: false }` for a field that must be absent.
 */
export interface FilterPattern {
  [field: string]: (string | { exists: false })[] | FilterPattern;
}

export interface StreamSource {
  kind: 'table-stream';
  /** Only records matching this pattern invoke the function (on AWS: the mapping's filter criteria). */
  filter: FilterPattern;
  batchSize: number;
  /** A failing batch is split in two and each half retried separately, down to the failing record. */
  bisectBatchOnError: boolean;
  /**
   * Retries of a failing batch; -1: until its records are `maxRecordAgeSeconds` old (AWS's
   * "retry until the record expires"), so an outage of what the handler needs loses nothing
   * while it lasts less than that. The local stream poller behaves the same way.
   */
  retryAttempts: number;
  /** Records older than this are not retried (nor, on AWS, handled at all): they go to `onFailure`. */
  maxRecordAgeSeconds: number;
  /** Where a batch that still fails goes (shard and sequence range; the events stay in the outbox). */
  onFailure: QueueRef;
}

export interface QueueSource {
  kind: 'queue';
  queue: QueueRef;
  batchSize: number;
  /** Always true here: the handler returns `batchItemFailures`, so one failure does not retry its batch. */
  reportBatchItemFailures: true;
  /**
   * At most this many batches handled at once (the event source mapping's maximum concurrency,
   * 2 to 1000; locally the number of pollers), so a backlog cannot take the account's Lambda
   * concurrency from the API functions.
   */
  maxConcurrency: number;
}

/** Invoked on a timer: an EventBridge schedule rule on AWS, a timer locally. */
export interface ScheduleSource {
  kind: 'schedule';
  /** Every this many seconds (EventBridge rates are whole minutes: a multiple of 60). */
  rateSeconds: number;
}

export interface WorkerDefinition {
  /** Stable id; also the construct id prefix on AWS (`<id>Fn`). */
  id: string;
  /** Handler module relative to the project root; it exports `handler`. */
  handler: string;
  description: string;
  source: StreamSource | QueueSource | ScheduleSource;
  timeoutSeconds: number;
  /** MB of memory (and CPU in proportion) when the stage's default is not enough. */
  memorySizeMb?: number;
  /**
   * Least privilege: what the function itself does (the event source's own reads are granted with
   * it); `files` reads (and writes) objects of the files bucket.
   */
  access: { table: 'read' | 'readWrite'; sendTo: QueueRef[]; files?: 'read' | 'readWrite' };
}

export const workers: readonly WorkerDefinition[] = [
  {
    id: 'EventRouter',
    handler: 'functions/events/router.ts',
    description: 'Outbox stream router: new events -> one delivery message per subscribed webhook',
    source: {
      kind: 'table-stream',
      // New outbox events, and redelivery requests from the API (which never talks to SQS itself).
      filter: { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['EVENT', 'DELIVERY_REQUEST'] } } } },
      batchSize: 100,
      bisectBatchOnError: true,
      // Until the stream's own 24 h retention: no outage shorter than that loses an event (docs/events.md).
      retryAttempts: -1,
      maxRecordAgeSeconds: 24 * 3600,
      onFailure: 'routerFailures',
    },
    timeoutSeconds: 30,
    access: { table: 'readWrite', sendTo: ['deliveries'] },
  },
  {
    id: 'WebhookDelivery',
    handler: 'functions/events/deliver.ts',
    description: 'Signs and POSTs webhook deliveries, records attempts, schedules retries',
    // Up to 10 deliveries run in parallel per invocation, each bounded by the 10 s HTTP timeout; at
    // most 16 invocations at once (160 deliveries in flight), however slow the receivers.
    source: { kind: 'queue', queue: 'deliveries', batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 16 },
    timeoutSeconds: 20,
    access: { table: 'readWrite', sendTo: ['deliveriesDlq'] },
  },
  {
    id: 'WebhookDeadLetter',
    handler: 'functions/events/dead-letter.ts',
    description: 'Marks dead-lettered webhook deliveries as failed',
    source: { kind: 'queue', queue: 'deliveriesDlq', batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 2 },
    timeoutSeconds: 10,
    access: { table: 'readWrite', sendTo: [] },
  },
  {
    id: 'DeliverySweeper',
    handler: 'functions/events/sweep.ts',
    description: 'Re-arms webhook deliveries left pending past their next attempt (a lost queue message)',
    source: { kind: 'schedule', rateSeconds: 300 },
    timeoutSeconds: 60,
    access: { table: 'readWrite', sendTo: ['deliveries'] },
  },
  {
    id: 'LegacyPriceSweeper',
    handler: 'functions/legacy-products/sweep.ts',
    description: 'Removes legacy price versions left over an hour (a create or import that died half-way, an unfinished cleanup)',
    // A worker of its own rather than a second duty of the delivery sweeper: another domain, another
    // rhythm (an hour's grace needs no 5-minute runs), and a minute of batch deletes must neither
    // delay re-arming deliveries nor share that function's error alarm. It sends to no queue.
    source: { kind: 'schedule', rateSeconds: 900 },
    // A run deletes for up to 60 s (SWEEP_BUDGET_MS, shared/legacy-products/sweeper.ts), then stops; the rest is the next run's.
    timeoutSeconds: 120,
    access: { table: 'readWrite', sendTo: [] },
  },
  {
    id: 'FilePreflight',
    handler: 'functions/files/preflight.ts',
    description:
      'Verifies large presigned uploads, then the print preflight of ready files: PDF pages, page sizes and encryption; image pixels and dpi',
    source: {
      kind: 'table-stream',
      // Files with work for it: a large presigned upload handed over by its completion (processing,
      // its preflight pending) and a ready file whose preflight is pending (an upload, a completion).
      // Not one whose work has started (`worker_started_at`: the worker's own mark), nor the worker's
      // own results, which no longer match: its writes do not invoke it again.
      filter: {
        dynamodb: {
          NewImage: {
            entity: { S: ['FILE'] },
            status: { S: ['ready', 'processing'] },
            preflight: { M: { status: { S: ['pending'] } } },
            worker_started_at: { S: [{ exists: false }] },
          },
        },
      },
      // One file per invocation: memory and timeout are sized for one file of PREFLIGHT_MAX_BYTES.
      batchSize: 1,
      bisectBatchOnError: false,
      // A file's own trouble never fails the record: a file that cannot be checked is recorded failed
      // or skipped, and one the worker stopped on (out of time or memory) is set aside by the retry,
      // which finds its start marked (docs/files.md#the-worker). What throws is S3 or DynamoDB being
      // unavailable, which holds up the shard's later files meanwhile, so: 3 retries within an hour,
      // then the record's range goes to the on-failure queue (with an alarm).
      retryAttempts: 3,
      maxRecordAgeSeconds: 3600,
      onFailure: 'preflightFailures',
    },
    // A 200 MB PDF (PREFLIGHT_MAX_BYTES) is read whole and parsed by pdf-lib, within its bounds
    // (shared/files/preflight/bounds.ts: 30 s, 128 MB inflated, 2,000,000 objects); 2 GB leaves room
    // for that and buys CPU (over one vCPU). Verifying a 2 GiB upload streams it through SHA-256 and
    // copies it within the bucket: about a minute, hence 300 s. docs/files.md#the-worker has the figures.
    timeoutSeconds: 300,
    memorySizeMb: 2048,
    access: { table: 'readWrite', sendTo: [], files: 'readWrite' },
  },
];

/**
 * True when `value` matches the filter pattern (the subset of Lambda's filter syntax used above): a
 * field matches a list holding its value, or `{ exists: false }` when it is absent — also when an
 * object on its path is.
 */
export function matchesFilter(pattern: FilterPattern, value: unknown): boolean {
  const object = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return Object.entries(pattern).every(([field, rule]) => {
    const actual = object[field];
    if (!Array.isArray(rule))
      return (actual === undefined || (typeof actual === 'object' && actual !== null)) && matchesFilter(rule, actual);
    return rule.some((allowed) => (typeof allowed === 'string' ? actual === allowed : actual === undefined));
  });
}

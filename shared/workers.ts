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
 * the subset used here: nested objects whose leaves are lists of allowed exact values.
 */
export interface FilterPattern {
  [field: string]: string[] | FilterPattern;
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
   * it); `files: 'read'` reads objects of the files bucket.
   */
  access: { table: 'read' | 'readWrite'; sendTo: QueueRef[]; files?: 'read' };
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
    description: 'Print preflight of ready files: PDF pages, page sizes and encryption; image pixels and dpi',
    source: {
      kind: 'table-stream',
      // Files that became ready with a pending preflight (an upload, a completion); the recorded
      // result no longer matches, so the worker's own write does not invoke it again.
      filter: {
        dynamodb: { NewImage: { entity: { S: ['FILE'] }, status: { S: ['ready'] }, preflight: { M: { status: { S: ['pending'] } } } } },
      },
      // One file per invocation: memory and timeout are sized for one file of PREFLIGHT_MAX_BYTES.
      batchSize: 1,
      bisectBatchOnError: false,
      // A failure (S3 or DynamoDB unavailable, a file that times the check out) holds up the shard's
      // later files meanwhile, so: 3 retries within an hour, then the record's range goes to the
      // on-failure queue (with an alarm) and the file keeps its pending preflight — usable as it is.
      retryAttempts: 3,
      maxRecordAgeSeconds: 3600,
      onFailure: 'preflightFailures',
    },
    // A 200 MB PDF (PREFLIGHT_MAX_BYTES) is read whole and parsed by pdf-lib, which copies its
    // streams: about three times the file in memory at the peak (a 195 MB PDF of 400 pages parsed
    // in 0.3 s adding 200 MB); 2 GB leaves room for PDFs of many small objects and buys CPU (over
    // one vCPU). docs/files.md#preflight has the figures.
    timeoutSeconds: 120,
    memorySizeMb: 2048,
    access: { table: 'readWrite', sendTo: [], files: 'read' },
  },
];

/** True when `value` matches the filter pattern (the subset of Lambda's filter syntax used above). */
export function matchesFilter(pattern: FilterPattern, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([field, rule]) => {
    const actual = (value as Record<string, unknown>)[field];
    return Array.isArray(rule) ? rule.includes(actual as string) : matchesFilter(rule, actual);
  });
}

/**
 * Resource definitions: the one place that says what the table, queues and buckets look like.
 * CDK (infra/) turns these into CloudFormation; the local runtime (local-aws/) creates the
 * same things in DynamoDB Local, the SQS emulator and the S3 emulator. Never keep a second copy.
 */

export type AttributeType = 'S' | 'N';

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
  /** KEYS_ONLY indexes are used to page through collections cheaply; items are then fetched by key. */
  projection: 'KEYS_ONLY' | 'ALL';
}

export interface TableDefinition {
  /** Logical id, also the suffix of the physical name. */
  id: string;
  partitionKey: string;
  sortKey: string;
  attributes: Record<string, AttributeType>;
  indexes: IndexDefinition[];
  ttlAttribute: string;
  stream: 'NEW_AND_OLD_IMAGES';
}

export const table: TableDefinition = {
  id: 'Table',
  partitionKey: 'pk',
  sortKey: 'sk',
  attributes: { pk: 'S', sk: 'S', gsi1pk: 'S', gsi1sk: 'S', gsi2pk: 'S', gsi2sk: 'S', gsi3pk: 'S', gsi3sk: 'S' },
  indexes: [
    // Collections newest first (customers of a tenant, orders by status, ...).
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'KEYS_ONLY' },
    // Secondary orderings and lookups (customers by name prefix, orders by customer, ...).
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'KEYS_ONLY' },
    // Sparse and across tenants, for the sweepers: pending webhook deliveries by when their message should
    // next act; legacy price-version records by when they were started or retired.
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'KEYS_ONLY' },
  ],
  ttlAttribute: 'expires_at',
  stream: 'NEW_AND_OLD_IMAGES',
};

export interface QueueDefinition {
  id: string;
  /** Seconds; at least 6x the consumer's timeout. */
  visibilityTimeoutSeconds: number;
  retentionSeconds: number;
  deadLetter: { id: string; maxReceiveCount: number; retentionSeconds: number };
}

export const queues: Record<'deliveries', QueueDefinition> = {
  deliveries: {
    id: 'Deliveries',
    // 6x the delivery worker's 20 s timeout (shared/workers.ts). Retries do not use this: the
    // worker sets each message's visibility to the retry delay itself.
    visibilityTimeoutSeconds: 120,
    // Must outlive the whole retry schedule (default ~45 h, shared/webhooks/retry-schedule.ts): 4 days.
    retentionSeconds: 4 * 24 * 3600,
    // The worker moves a delivery to the DLQ itself after its last attempt. Redrive is only the
    // backstop for messages that keep crashing the worker, so it sits well above the receives a
    // normal chain needs (8 attempts + 3 extra hops for steps longer than the 12 h visibility cap).
    deadLetter: { id: 'DeliveriesDlq', maxReceiveCount: 20, retentionSeconds: 14 * 24 * 3600 },
  },
};

/**
 * Queues that only hold records for people (no consumer, no redrive): the stream router's
 * on-failure destination, where AWS Lambda puts the shard and sequence range of a batch that
 * still failed after 24 h of retries (the events themselves stay in the outbox for 30 days, and
 * `npm run events -- replay` re-routes them), and the file preflight worker's (docs/files.md#preflight).
 */
export interface HoldingQueueDefinition {
  id: string;
  retentionSeconds: number;
}

export const holdingQueues: Record<'routerFailures' | 'preflightFailures', HoldingQueueDefinition> = {
  routerFailures: { id: 'EventRouterFailures', retentionSeconds: 14 * 24 * 3600 },
  // The file preflight worker's on-failure destination: stream records of files whose check kept failing.
  preflightFailures: { id: 'FilePreflightFailures', retentionSeconds: 14 * 24 * 3600 },
};

/**
 * The CORS rule of a bucket that browsers upload to directly, with a presigned POST (the API's large uploads) or a
 * presigned PUT. The origins are not here: on AWS they are the stage's, those the API allows (the admin panel's and
 * the stage's `corsOrigins`: infra/stack.ts), locally any, as the local gateway allows any (local-aws/provision.ts).
 */
export interface BrowserUploadRule {
  allowedMethods: ('POST' | 'PUT')[];
  /** Request headers a browser may send: a presigned PUT's signed ones (type, checksums); a form POST sends none of its own. */
  allowedHeaders: string[];
  /** Response headers a browser may read. */
  exposedHeaders: string[];
  /** How long a browser may keep the answer to a preflight. */
  maxAgeSeconds: number;
}

export interface BucketDefinition {
  id: string;
  /** Objects under these prefixes expire after the given number of days. */
  expirations?: { prefix: string; days: number }[];
  /** Incomplete multipart uploads are aborted (their parts deleted) this many days after they began. */
  abortIncompleteUploadsAfterDays?: number;
  /** Browsers of the allowed origins may upload to the bucket directly (presigned); none otherwise. */
  browserUploads?: BrowserUploadRule;
}

export const buckets: Record<'files' | 'documents', BucketDefinition> = {
  // Pending presigned uploads land under tmp/ (docs/files.md); a multipart upload never finished leaves no parts behind.
  files: {
    id: 'Files',
    expirations: [{ prefix: 'tmp/', days: 1 }],
    abortIncompleteUploadsAfterDays: 1,
    // The admin panel and storefronts upload artwork from the browser; ETag tells a client what S3 stored.
    browserUploads: {
      allowedMethods: ['POST', 'PUT'],
      allowedHeaders: ['Content-Type', 'Content-MD5', 'x-amz-*'],
      exposedHeaders: ['ETag'],
      maxAgeSeconds: 3600,
    },
  },
  documents: { id: 'Documents' },
};

/**
 * Content types API Gateway passes as bytes (base64 to and from Lambda): request bodies of these
 * types arrive base64-encoded, and a base64 answer is returned as bytes when the request's first
 * `Accept` type is one of them (otherwise the client gets the base64 text). CDK and the local
 * gateway both use this list.
 */
export const binaryMediaTypes = ['multipart/form-data', 'application/pdf', 'application/octet-stream', 'image/*'];

/** Physical names follow `print-shop-<stage>-<kebab id>` on AWS and locally. */
export function physicalName(stage: string, id: string): string {
  const kebab = id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  return `print-shop-${stage}-${kebab}`;
}

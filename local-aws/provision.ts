/**
 * Creates the table, queues and buckets of shared/resources.ts in the local engines — the same
 * definitions CDK deploys, looped over, never copied. Runs on every start, also against persisted
 * data, so every step is "make it so": create what is missing, bring a kept table up to date with
 * the definitions (new index, stream, TTL), refuse clearly what cannot be changed in place.
 *
 * Not emulated locally: bucket lifecycle expirations (s3rver has none). A bucket's CORS rule is
 * (s3rver answers preflights and adds the headers), with any origin allowed.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  SetQueueAttributesCommand,
  SQSClient,
  type QueueAttributeName,
} from '@aws-sdk/client-sqs';
import {
  buckets,
  holdingQueues,
  physicalName,
  queues,
  table,
  type BucketDefinition,
  type IndexDefinition,
  type QueueDefinition,
} from '#shared/resources';
import { localClientConfig, type LocalEndpoints } from './clients';

type QueueKey = keyof typeof queues;
type HoldingQueueKey = keyof typeof holdingQueues;
type BucketKey = keyof typeof buckets;

export interface ProvisionedResources {
  tableName: string;
  /** Per queue in shared/resources.ts: its URL under its key, its DLQ's under `<key>Dlq`. */
  queueUrls: Record<QueueKey | `${QueueKey}Dlq` | HoldingQueueKey, string>;
  buckets: Record<BucketKey, string>;
}

export async function provisionResources(options: { endpoints: LocalEndpoints; stage: string }): Promise<ProvisionedResources> {
  const { endpoints, stage } = options;
  const dynamodb = new DynamoDBClient(localClientConfig(endpoints.dynamodb));
  const sqs = new SQSClient(localClientConfig(endpoints.sqs));
  const s3 = new S3Client(localClientConfig(endpoints.s3));
  try {
    const [tableName, queueUrls, bucketNames] = await Promise.all([
      provisionTable(dynamodb, physicalName(stage, table.id)),
      provisionQueues(sqs, stage),
      provisionBuckets(s3, stage),
    ]);
    return { tableName, queueUrls, buckets: bucketNames };
  } finally {
    dynamodb.destroy();
    sqs.destroy();
    s3.destroy();
  }
}

// ---- DynamoDB ---------------------------------------------------------------------------------

const keySchema = (partitionKey: string, sortKey: string): KeySchemaElement[] => [
  { AttributeName: partitionKey, KeyType: 'HASH' },
  { AttributeName: sortKey, KeyType: 'RANGE' },
];

const attributeDefinitions: AttributeDefinition[] = Object.entries(table.attributes).map(([AttributeName, AttributeType]) => ({
  AttributeName,
  AttributeType,
}));

const globalIndex = (index: IndexDefinition): GlobalSecondaryIndex => ({
  IndexName: index.name,
  KeySchema: keySchema(index.partitionKey, index.sortKey),
  Projection: { ProjectionType: index.projection },
});

const sameKeys = (a: KeySchemaElement[] | undefined, b: KeySchemaElement[]) =>
  JSON.stringify(a?.map((k) => [k.AttributeName, k.KeyType])) === JSON.stringify(b.map((k) => [k.AttributeName, k.KeyType]));

async function provisionTable(client: DynamoDBClient, TableName: string): Promise<string> {
  const existing = await describeTable(client, TableName);
  if (existing) {
    await reconcileTable(client, existing);
  } else {
    try {
      await client.send(
        new CreateTableCommand({
          TableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: attributeDefinitions,
          KeySchema: keySchema(table.partitionKey, table.sortKey),
          GlobalSecondaryIndexes: table.indexes.map(globalIndex),
          StreamSpecification: { StreamEnabled: true, StreamViewType: table.stream },
        }),
      );
    } catch (error) {
      // Created meanwhile by a concurrent start on the same data: fine.
      if ((error as Error).name !== 'ResourceInUseException') throw error;
    }
  }
  await waitUntilActive(client, TableName);
  await enableTtl(client, TableName);
  return TableName;
}

/** Brings a table kept from an earlier run in line with the definitions. */
async function reconcileTable(client: DynamoDBClient, existing: TableDescription): Promise<void> {
  const TableName = existing.TableName as string;
  const mismatch = (what: string) =>
    new Error(
      `Local table ${TableName} has ${what} than shared/resources.ts and cannot be changed in place. ` +
        'Delete the local data folder (its dynamodb/ subfolder) or start in memory.',
    );
  if (!sameKeys(existing.KeySchema, keySchema(table.partitionKey, table.sortKey))) {
    throw mismatch('another key schema');
  }
  const existingIndexes = existing.GlobalSecondaryIndexes ?? [];
  for (const index of table.indexes) {
    const found = existingIndexes.find((candidate) => candidate.IndexName === index.name);
    if (!found) {
      await updateTable(client, {
        TableName,
        AttributeDefinitions: attributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: globalIndex(index) }],
      });
    } else if (
      !sameKeys(found.KeySchema, keySchema(index.partitionKey, index.sortKey)) ||
      found.Projection?.ProjectionType !== index.projection
    ) {
      throw mismatch(`index ${index.name} with other keys or projection`);
    }
  }
  for (const stale of existingIndexes) {
    if (!table.indexes.some((index) => index.name === stale.IndexName)) {
      await updateTable(client, {
        TableName,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: stale.IndexName } }],
      });
    }
  }
  const stream = existing.StreamSpecification;
  if (stream?.StreamEnabled && stream.StreamViewType !== table.stream) {
    // The view type of an enabled stream cannot change; switch it off first.
    await updateTable(client, { TableName, StreamSpecification: { StreamEnabled: false } });
  }
  if (!stream?.StreamEnabled || stream.StreamViewType !== table.stream) {
    await updateTable(client, {
      TableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: table.stream },
    });
  }
}

async function updateTable(client: DynamoDBClient, input: ConstructorParameters<typeof UpdateTableCommand>[0]): Promise<void> {
  await client.send(new UpdateTableCommand(input));
  await waitUntilActive(client, input.TableName as string);
}

async function describeTable(client: DynamoDBClient, TableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName }))).Table;
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

/** DynamoDB Local is usually ACTIVE at once; the wait keeps this correct if it is not. */
async function waitUntilActive(client: DynamoDBClient, TableName: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const description = await describeTable(client, TableName);
    const indexesReady = (description?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
    if (description?.TableStatus === 'ACTIVE' && indexesReady) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`Local table ${TableName} did not become ACTIVE`);
}

async function enableTtl(client: DynamoDBClient, TableName: string): Promise<void> {
  const { TimeToLiveDescription: ttl } = await client.send(new DescribeTimeToLiveCommand({ TableName }));
  const on = ttl?.TimeToLiveStatus === 'ENABLED' || ttl?.TimeToLiveStatus === 'ENABLING';
  if (on && ttl?.AttributeName === table.ttlAttribute) return;
  if (on && ttl?.AttributeName) {
    // TTL on another attribute (older definitions): switch it off before moving it.
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName,
        TimeToLiveSpecification: { Enabled: false, AttributeName: ttl.AttributeName },
      }),
    );
  }
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName,
        TimeToLiveSpecification: { Enabled: true, AttributeName: table.ttlAttribute },
      }),
    );
  } catch (error) {
    const { name, message } = error as Error;
    if (!(name === 'ValidationException' && /already enabled/i.test(message))) throw error;
  }
}

// ---- SQS --------------------------------------------------------------------------------------

async function provisionQueues(client: SQSClient, stage: string): Promise<ProvisionedResources['queueUrls']> {
  const urls: Partial<ProvisionedResources['queueUrls']> = {};
  for (const [key, queue] of Object.entries(queues) as [QueueKey, QueueDefinition][]) {
    // The DLQ first: the main queue's RedrivePolicy names its ARN.
    const dlqUrl = await ensureQueue(client, physicalName(stage, queue.deadLetter.id), {
      MessageRetentionPeriod: String(queue.deadLetter.retentionSeconds),
    });
    const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }));
    urls[key] = await ensureQueue(client, physicalName(stage, queue.id), {
      VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
      MessageRetentionPeriod: String(queue.retentionSeconds),
      RedrivePolicy: JSON.stringify({
        deadLetterTargetArn: Attributes?.QueueArn,
        maxReceiveCount: queue.deadLetter.maxReceiveCount,
      }),
    });
    urls[`${key}Dlq`] = dlqUrl;
  }
  for (const [key, queue] of Object.entries(holdingQueues) as [HoldingQueueKey, (typeof holdingQueues)[HoldingQueueKey]][]) {
    urls[key] = await ensureQueue(client, physicalName(stage, queue.id), { MessageRetentionPeriod: String(queue.retentionSeconds) });
  }
  return urls as ProvisionedResources['queueUrls'];
}

/** CreateQueue is idempotent only for identical attributes; otherwise update the existing queue. */
async function ensureQueue(client: SQSClient, QueueName: string, Attributes: Partial<Record<QueueAttributeName, string>>): Promise<string> {
  try {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName, Attributes }));
    return QueueUrl as string;
  } catch (error) {
    if (!/QueueNameExists|QueueAlreadyExists/.test((error as Error).name)) throw error;
    const { QueueUrl } = await client.send(new GetQueueUrlCommand({ QueueName }));
    await client.send(new SetQueueAttributesCommand({ QueueUrl, Attributes }));
    return QueueUrl as string;
  }
}

// ---- S3 ---------------------------------------------------------------------------------------

async function provisionBuckets(client: S3Client, stage: string): Promise<ProvisionedResources['buckets']> {
  const entries = Object.entries(buckets) as [BucketKey, BucketDefinition][];
  const names = await Promise.all(
    entries.map(async ([key, bucket]) => {
      const Bucket = physicalName(stage, bucket.id);
      const exists = await client.send(new HeadBucketCommand({ Bucket })).then(
        () => true,
        () => false,
      );
      if (!exists) {
        try {
          await client.send(new CreateBucketCommand({ Bucket }));
        } catch (error) {
          // Created meanwhile (s3rver answers BucketAlreadyExists even for the same owner).
          if (!/BucketAlready(Exists|OwnedByYou)/.test((error as Error).name)) throw error;
        }
      }
      // The CORS rule CDK gives the bucket (infra/data.ts), set again on every start: a kept bucket follows the definition.
      if (bucket.browserUploads) {
        const rule = bucket.browserUploads;
        await client.send(
          new PutBucketCorsCommand({
            Bucket,
            CORSConfiguration: {
              CORSRules: [
                {
                  ID: 'browser-uploads',
                  AllowedOrigins: LOCAL_BROWSER_ORIGINS,
                  AllowedMethods: rule.allowedMethods,
                  AllowedHeaders: rule.allowedHeaders,
                  ExposeHeaders: rule.exposedHeaders,
                  MaxAgeSeconds: rule.maxAgeSeconds,
                },
              ],
            },
          }),
        );
      }
      return [key, Bucket] as const;
    }),
  );
  return Object.fromEntries(names) as ProvisionedResources['buckets'];
}

/**
 * The origins browsers may upload from locally: any, as the local gateway answers any origin (the panel is served
 * from the gateway's own, under whichever host name the browser used; storefronts in development from anywhere).
 */
const LOCAL_BROWSER_ORIGINS = ['*'];

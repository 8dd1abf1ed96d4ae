/**
 * The local engines themselves: real DynamoDB Local (Java), the SQS emulator and s3rver, started
 * and provisioned the way `npm start` and the test setup do it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { GetBucketCorsCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckets, queues, table } from '#shared/resources';
import { localClientConfig } from '#local-aws/clients';
import { startDynamoDbLocal } from '#local-aws/dynamodb-local';
import { startEngines, type Engines } from '#local-aws/engines';
import { provisionResources } from '#local-aws/provision';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

const TIMEOUT = 60_000;

/** Pids of DynamoDB Local processes listening on `port` (Linux /proc; empty elsewhere). */
function dynamoDbLocalPids(endpoint: string): number[] {
  const port = new URL(endpoint).port;
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries.map(Number).filter((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return args.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && args[args.indexOf('-port') + 1] === port;
    } catch {
      return false;
    }
  });
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('local engines, in memory', () => {
  let engines: Engines;
  let dynamodb: DynamoDBClient;
  let sqs: SQSClient;
  let s3: S3Client;

  beforeAll(async () => {
    const started = Date.now();
    engines = await startEngines({ dataDir: join(tmpdir(), 'unused'), inMemory: true, stage: 'enginetest' });
    console.log(`engines started in ${Date.now() - started} ms`);
    dynamodb = new DynamoDBClient(localClientConfig(engines.endpoints.dynamodb));
    sqs = new SQSClient(localClientConfig(engines.endpoints.sqs));
    s3 = new S3Client(localClientConfig(engines.endpoints.s3));
  }, TIMEOUT);

  afterAll(async () => {
    for (const client of [dynamodb, sqs, s3]) client?.destroy();
    await engines?.stop();
  }, TIMEOUT);

  it('creates the table with every index, the stream and TTL', async () => {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: engines.resources.tableName }));
    expect(Table?.TableName).toBe('print-shop-enginetest-table');
    expect(Table?.BillingModeSummary?.BillingMode ?? 'PAY_PER_REQUEST').toBe('PAY_PER_REQUEST');
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName,
      keys: index.KeySchema?.map((key) => key.AttributeName),
      projection: index.Projection?.ProjectionType,
    }));
    expect(indexes).toEqual(
      expect.arrayContaining(
        table.indexes.map((index) => ({
          name: index.name,
          keys: [index.partitionKey, index.sortKey],
          projection: index.projection,
        })),
      ),
    );
    expect(indexes).toHaveLength(table.indexes.length);
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: table.stream });
    expect(Table?.LatestStreamArn).toBeTruthy();
    const { TimeToLiveDescription } = await dynamodb.send(new DescribeTimeToLiveCommand({ TableName: engines.resources.tableName }));
    expect(TimeToLiveDescription).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: table.ttlAttribute });
  });

  it('provisioning again changes nothing and returns the same names', async () => {
    const again = await provisionResources({ endpoints: engines.endpoints, stage: 'enginetest' });
    expect(again).toEqual(engines.resources);
  });

  it('delivers a message sent to the main queue', async () => {
    const QueueUrl = engines.resources.queueUrls.deliveries;
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: '{"hello":"queue"}' }));
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1 }));
    expect(Messages?.map((message) => message.Body)).toEqual(['{"hello":"queue"}']);
  });

  it('moves a message received more than maxReceiveCount times to the DLQ', async () => {
    const { deliveries, deliveriesDlq } = engines.resources.queueUrls;
    await sqs.send(new SendMessageCommand({ QueueUrl: deliveries, MessageBody: 'poison' }));
    let receives = 0;
    for (let attempt = 0; attempt < queues.deliveries.deadLetter.maxReceiveCount + 3; attempt++) {
      const { Messages } = await sqs.send(
        // VisibilityTimeout 0: the message is visible again at once, as after a failed attempt.
        new ReceiveMessageCommand({ QueueUrl: deliveries, VisibilityTimeout: 0, MaxNumberOfMessages: 10 }),
      );
      receives += (Messages ?? []).filter((message) => message.Body === 'poison').length;
    }
    expect(receives).toBe(queues.deliveries.deadLetter.maxReceiveCount);
    const { Messages } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: deliveriesDlq, WaitTimeSeconds: 1 }));
    expect(Messages?.map((message) => message.Body)).toEqual(['poison']);
  });

  it('serves an object of the files bucket through a presigned GET URL', async () => {
    const Bucket = engines.resources.buckets.files;
    await s3.send(new PutObjectCommand({ Bucket, Key: 'docs/a.txt', Body: 'presigned content', ContentType: 'text/plain' }));
    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket, Key: 'docs/a.txt' }), { expiresIn: 60 });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('presigned content');
  });

  it('lets browsers upload to the files bucket with the rule CDK deploys (any origin locally), and a preflight pass', async () => {
    const rule = buckets.files.browserUploads!;
    const { CORSRules } = await s3.send(new GetBucketCorsCommand({ Bucket: engines.resources.buckets.files }));
    expect(CORSRules).toEqual([
      {
        ID: 'browser-uploads',
        AllowedOrigins: ['*'],
        AllowedMethods: rule.allowedMethods,
        AllowedHeaders: rule.allowedHeaders,
        ExposeHeaders: rule.exposedHeaders,
        MaxAgeSeconds: rule.maxAgeSeconds,
      },
    ]);
    // A presigned PUT's preflight from the panel's origin (locally the gateway's), with the headers it signs.
    const preflight = await fetch(`${engines.endpoints.s3}/${engines.resources.buckets.files}/tmp/upload`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://127.0.0.1:3000',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type,x-amz-checksum-sha256',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, PUT');
    await expect(
      s3.send(new GetBucketCorsCommand({ Bucket: engines.resources.buckets.documents })),
      'no CORS on the documents bucket',
    ).rejects.toThrow();
  });

  it('reaches all three engines from plain SDK clients configured only by the environment', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, engines.env);
    try {
      // No endpoint, credentials or forcePathStyle in code: exactly how handlers build clients.
      const plainDynamo = new DynamoDBClient({});
      const plainSqs = new SQSClient({});
      const plainS3 = new S3Client({});
      const { TableNames } = await plainDynamo.send(new ListTablesCommand({}));
      expect(TableNames).toContain(engines.env.TABLE_NAME);
      await plainSqs.send(new SendMessageCommand({ QueueUrl: engines.env.DELIVERIES_QUEUE_URL, MessageBody: 'env' }));
      // A streamed body: with the SDK's default checksums s3rver would store aws-chunked framing.
      const Bucket = engines.env.FILES_BUCKET;
      const body = Readable.from([Buffer.from('streamed '), Buffer.from('upload')]);
      await plainS3.send(new PutObjectCommand({ Bucket, Key: 'tmp/stream.txt', Body: body, ContentLength: 15 }));
      const object = await plainS3.send(new GetObjectCommand({ Bucket, Key: 'tmp/stream.txt' }));
      expect(await object.Body?.transformToString()).toBe('streamed upload');
      for (const client of [plainDynamo, plainSqs, plainS3]) client.destroy();
    } finally {
      for (const key of Object.keys(engines.env)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  it(
    'stop() ends the Java process and can be called twice',
    async () => {
      const pids = dynamoDbLocalPids(engines.endpoints.dynamodb);
      if (process.platform === 'linux') expect(pids).toHaveLength(1);
      await engines.stop();
      await engines.stop();
      for (const pid of pids) expect(isAlive(pid)).toBe(false);
      await expect(fetch(engines.endpoints.sqs)).rejects.toThrow();
      await expect(fetch(engines.endpoints.s3)).rejects.toThrow();
    },
    TIMEOUT,
  );
});

describe('local engines, persistent', () => {
  it(
    'keeps a table item and an object across stop and start with the same dataDir',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'print-shop-engines-'));
      try {
        const first = await startEngines({ dataDir, inMemory: false, stage: 'persist' });
        const item = { pk: { S: 'TENANT#t1' }, sk: { S: 'ORDER#1' }, total: { N: '42' } };
        const dynamo1 = new DynamoDBClient(localClientConfig(first.endpoints.dynamodb));
        await dynamo1.send(new PutItemCommand({ TableName: first.resources.tableName, Item: item }));
        const s3a = new S3Client(localClientConfig(first.endpoints.s3));
        await s3a.send(new PutObjectCommand({ Bucket: first.resources.buckets.documents, Key: 'inv.pdf', Body: 'pdf' }));
        dynamo1.destroy();
        s3a.destroy();
        await first.stop();

        const second = await startEngines({ dataDir, inMemory: false, stage: 'persist' });
        try {
          const dynamo2 = new DynamoDBClient(localClientConfig(second.endpoints.dynamodb));
          const { Item } = await dynamo2.send(
            new GetItemCommand({ TableName: second.resources.tableName, Key: { pk: item.pk, sk: item.sk } }),
          );
          expect(Item).toEqual(item);
          const s3b = new S3Client(localClientConfig(second.endpoints.s3));
          const object = await s3b.send(new GetObjectCommand({ Bucket: second.resources.buckets.documents, Key: 'inv.pdf' }));
          expect(await object.Body?.transformToString()).toBe('pdf');
          dynamo2.destroy();
          s3b.destroy();
        } finally {
          await second.stop();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );

  it(
    'refuses a data folder in use, and kills the Java process of a runner that died',
    async () => {
      const dbPath = await mkdtemp(join(tmpdir(), 'print-shop-dynamodb-'));
      try {
        const first = await startDynamoDbLocal({ dbPath, inMemory: false });
        await expect(startDynamoDbLocal({ dbPath, inMemory: false })).rejects.toThrow(/in use by process/);

        // What a `kill -9` of the runner leaves behind: the JVM still runs, its owner is gone.
        const pidFile = join(dbPath, 'dynamodb-local.pid');
        const recorded = JSON.parse(await readFile(pidFile, 'utf8')) as { pid: number; owner: number };
        await writeFile(pidFile, JSON.stringify({ ...recorded, owner: 2 ** 22 + 1 }));

        const second = await startDynamoDbLocal({ dbPath, inMemory: false });
        expect(isAlive(first.pid)).toBe(false);
        await first.stop(); // already gone: still resolves
        await second.stop();
        expect(isAlive(second.pid)).toBe(false);
      } finally {
        await rm(dbPath, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );
});

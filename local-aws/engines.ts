/**
 * Starts the three local engines (DynamoDB Local, SQS emulator, S3 emulator), provisions the
 * resources and returns the environment handlers need. Used by `npm start` and the tests' global
 * setup. Every port is picked by the OS, so any number of these can run side by side.
 *
 * Persistent mode keeps DynamoDB under <dataDir>/dynamodb and S3 under <dataDir>/s3. In-memory
 * mode runs DynamoDB -inMemory and S3 in a temp folder removed on stop. SQS is memory-only in
 * both (see sqs.ts). The key that stands in for KMS (webhook secrets are stored encrypted) is
 * <dataDir>/secrets.key, created on the first start; in-memory mode uses a temp one. Email is
 * never sent locally: handlers write each message to <dataDir>/mail/ as an `.eml` file
 * (shared/mail/send.ts), in-memory mode included, so it can be read (the tests' data folder is a
 * temp one, removed after the run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { env as envNames } from '#shared/config';
import { secretsKeyEnv } from '#shared/crypto/env';
import { mailEnv } from '#shared/mail/config';
import { localAwsEnv, type LocalEndpoints } from './clients';
import { startDynamoDbLocal } from './dynamodb-local';
import { provisionResources, type ProvisionedResources } from './provision';
import { startS3Emulator } from './s3';
import { ensureSecretsKey } from './secrets-key';
import { startSqsEmulator } from './sqs';

export interface EnginesOptions {
  dataDir: string;
  inMemory: boolean;
  stage: string;
}

export interface Engines {
  endpoints: LocalEndpoints;
  resources: ProvisionedResources;
  /** To merge into process.env (or a child's env) before AWS clients are created. */
  env: Record<string, string>;
  /** Stops all three engines; idempotent. */
  stop(): Promise<void>;
}

export async function startEngines(options: EnginesOptions): Promise<Engines> {
  const dataDir = resolve(options.dataDir);
  const s3Dir = options.inMemory ? await mkdtemp(join(tmpdir(), 'print-shop-s3-')) : join(dataDir, 's3');
  const keyDir = options.inMemory ? await mkdtemp(join(tmpdir(), 'print-shop-key-')) : dataDir;
  const running: { stop(): Promise<void> }[] = [];
  const started = <T extends { stop(): Promise<void> }>(engine: T): T => {
    running.push(engine);
    return engine;
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      const results = await Promise.allSettled(running.map((engine) => engine.stop()));
      if (options.inMemory) {
        await rm(s3Dir, { recursive: true, force: true });
        await rm(keyDir, { recursive: true, force: true });
      }
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed) throw failed.reason;
    })());

  try {
    // Java needs seconds to start; the two Node emulators start meanwhile.
    const [dynamodb, sqs, s3] = await settleAll([
      startDynamoDbLocal(options.inMemory ? { inMemory: true } : { inMemory: false, dbPath: join(dataDir, 'dynamodb') }).then(started),
      startSqsEmulator().then(started),
      startS3Emulator({ directory: s3Dir }).then(started),
    ]);
    const endpoints: LocalEndpoints = { dynamodb: dynamodb.endpoint, sqs: sqs.endpoint, s3: s3.endpoint };
    const resources = await provisionResources({ endpoints, stage: options.stage });
    const env: Record<string, string> = {
      ...localAwsEnv(endpoints),
      [envNames.stage]: options.stage,
      [envNames.tableName]: resources.tableName,
      [envNames.filesBucket]: resources.buckets.files,
      [envNames.documentsBucket]: resources.buckets.documents,
      [envNames.deliveriesQueueUrl]: resources.queueUrls.deliveries,
      [envNames.deliveriesDlqUrl]: resources.queueUrls.deliveriesDlq,
      [envNames.localMode]: 'true',
      [secretsKeyEnv.localKeyFile]: ensureSecretsKey(keyDir),
      [mailEnv.mailDir]: join(dataDir, 'mail'),
    };
    return { endpoints, resources, env, stop };
  } catch (error) {
    await stop().catch(() => undefined); // whatever did start must not outlive the failure
    throw error;
  }
}

/** Like Promise.all, but waits for every start to settle so none is left running unseen. */
async function settleAll<T extends unknown[]>(promises: [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T> {
  const results: PromiseSettledResult<unknown>[] = await Promise.allSettled(promises);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as T;
}

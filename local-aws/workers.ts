/**
 * Runs the workers of shared/workers.ts locally — the same handler modules CDK deploys, fed by a
 * stream poller, queue pollers or a timer configured from the same definitions. Started by
 * `npm start` and by the tests' global setup after the engines; stopped before them.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workers as allWorkers, type QueueRef, type WorkerDefinition } from '#shared/workers';
import { localClientConfig, type LocalEndpoints } from './clients';
import { lambdaContext } from './lambda-context';
import type { ProvisionedResources } from './provision';
import { startQueuePoller } from './queue-poller';
import { startStreamPoller, type Poller } from './stream-poller';
import { startTimer } from './timer';

const projectRoot = resolve(import.meta.dirname, '..');

type Handler = (event: unknown, context: unknown) => Promise<unknown>;

export interface WorkersOptions {
  endpoints: LocalEndpoints;
  resources: ProvisionedResources;
  definitions?: readonly WorkerDefinition[];
}

export interface Workers {
  /** Stops every poller (in-flight invocations finish first). Idempotent. */
  stop(): Promise<void>;
  /** Like disabling the event source mappings: nothing new is read, in-flight invocations finish. */
  pause(): Promise<void>;
  /** Like enabling them again: reading goes on where it stopped. */
  resume(): void;
}

async function loadHandler(file: string): Promise<Handler> {
  const module = (await import(pathToFileURL(resolve(projectRoot, file)).href)) as { handler?: Handler };
  if (typeof module.handler !== 'function') throw new Error(`${file} exports no handler`);
  return module.handler;
}

/** What EventBridge hands a scheduled function (only its shape matters: the sweeper reads nothing of it). */
const scheduledEvent = (workerId: string) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  time: new Date().toISOString(),
  resources: [`local:rule/${workerId}`],
  detail: {},
});

export async function startWorkers(options: WorkersOptions): Promise<Workers> {
  const queueUrl = (ref: QueueRef): string => options.resources.queueUrls[ref];
  const sqs = new SQSClient(localClientConfig(options.endpoints.sqs));
  const pollers: Poller[] = [];
  const stop = async () => {
    await Promise.allSettled(pollers.map((poller) => poller.stop()));
    sqs.destroy();
  };
  try {
    for (const worker of options.definitions ?? allWorkers) {
      const handler = await loadHandler(worker.handler);
      const invoke = (event: unknown) => handler(event, lambdaContext(worker.id, randomUUID(), worker.timeoutSeconds * 1000));
      const source = worker.source;
      if (source.kind === 'table-stream') {
        pollers.push(
          await startStreamPoller({
            name: worker.id,
            tableName: options.resources.tableName,
            endpoint: options.endpoints.dynamodb,
            source,
            invoke,
            onFailure: async (record) => {
              await sqs.send(
                new SendMessageCommand({
                  QueueUrl: queueUrl(source.onFailure),
                  MessageBody: JSON.stringify({ worker: worker.id, ...record }),
                }),
              );
            },
          }),
        );
      } else if (source.kind === 'queue') {
        pollers.push(
          await startQueuePoller({
            name: worker.id,
            queueUrl: queueUrl(source.queue),
            endpoint: options.endpoints.sqs,
            batchSize: source.batchSize,
            // As many batches at once as the mapping's maximum concurrency allows on AWS (16 on the
            // deliveries queue: a slow receiver does not block the others and a backlog drains on
            // both cores); one poller (every 50 ms) while it is idle.
            concurrency: source.maxConcurrency,
            idleMs: source.queue === 'deliveries' ? 50 : 100,
            invoke: (event) => invoke(event) as Promise<never>,
          }),
        );
      } else {
        pollers.push(startTimer({ name: worker.id, everyMs: source.rateSeconds * 1000, invoke: () => invoke(scheduledEvent(worker.id)) }));
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    stop: () => (stopping ??= stop()),
    pause: async () => void (await Promise.all(pollers.map((poller) => poller.pause()))),
    resume: () => pollers.forEach((poller) => poller.resume()),
  };
}

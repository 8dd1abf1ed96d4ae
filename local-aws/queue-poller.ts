/**
 * The local stand-in for an SQS event source mapping with ReportBatchItemFailures: polls the
 * queue, invokes the handler with real SQSEvent batches, deletes the messages that succeeded and
 * leaves the reported failures (whose visibility the handler may have changed) in the queue. A
 * handler that throws fails the whole batch, as on AWS. `concurrency` pollers run at once, each
 * receiving a batch and handling it before the next (as Lambda's SQS pollers do), so one slow
 * receiver does not hold up every other delivery, and receives overlap with each other and with
 * the batches being handled (one receive at a time was the ceiling of a busy queue).
 *
 * Short polls with a pause when the queue is empty: the emulator's long poll only returns early
 * once it has a full batch, which would add up to a second to every delivery.
 */
import { DeleteMessageBatchCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { withoutSdkLogging } from '#shared/clients/quiet';
import { LOCAL_REGION, localClientConfig } from './clients';
import { pause } from './lambda-context';
import { PauseGate, pollerHandle } from './pause-gate';
import type { Poller } from './stream-poller';

export interface QueuePollerOptions {
  name: string;
  queueUrl: string;
  endpoint: string;
  batchSize: number;
  concurrency?: number;
  /** Pause after an empty receive. */
  idleMs?: number;
  invoke(event: SQSEvent): Promise<SQSBatchResponse | void>;
}

function toRecord(message: Message, queueArn: string): SQSRecord {
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      stringValue: value.StringValue,
      dataType: value.DataType ?? 'String',
      stringListValues: [],
      binaryListValues: [],
    };
  }
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes,
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: LOCAL_REGION,
  };
}

/** How long a helper poller waits for a backlog before it looks at the queue anyway. */
const HELPER_IDLE_MS = 1000;

/** Wakes the waiting helper pollers when a receive comes back full. */
class BacklogSignal {
  private waiting: (() => void)[] = [];

  constructor(private readonly aborted: AbortSignal) {
    aborted.addEventListener('abort', () => this.signalAll(), { once: true });
  }

  signal(): void {
    this.signalAll();
  }

  /** Resolves on the next signal, after `ms`, or when the poller stops. */
  wait(ms: number): Promise<void> {
    if (this.aborted.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting = this.waiting.filter((waiter) => waiter !== done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.push(done);
    });
  }

  private signalAll(): void {
    this.waiting.splice(0).forEach((wake) => wake());
  }
}

export async function startQueuePoller(options: QueuePollerOptions): Promise<Poller> {
  const client = new SQSClient(localClientConfig(options.endpoint));
  withoutSdkLogging(client);
  const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl: options.queueUrl, AttributeNames: ['QueueArn'] }));
  const queueArn = Attributes?.QueueArn ?? options.queueUrl;
  const abort = new AbortController();
  const concurrency = options.concurrency ?? 1;
  const gate = new PauseGate(concurrency, abort.signal);
  const log = (message: string, error?: unknown) => console.error(`[${options.name}] ${message}`, error ?? '');

  async function handleBatch(messages: Message[]): Promise<void> {
    const records = messages.map((message) => toRecord(message, queueArn));
    let failed: Set<string>;
    try {
      const response = await options.invoke({ Records: records });
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      log(`handler threw; the ${records.length} message(s) come back after their visibility timeout`, error);
      failed = new Set(records.map((record) => record.messageId));
    }
    const done = records.filter((record) => !failed.has(record.messageId));
    if (done.length === 0) return;
    const result = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: options.queueUrl,
        Entries: done.map((record, i) => ({ Id: String(i), ReceiptHandle: record.receiptHandle })),
      }),
    );
    if (result.Failed?.length)
      log(`could not delete ${result.Failed.length} handled message(s); they will be handled again`, result.Failed);
  }

  const batchSize = Math.min(10, options.batchSize);
  const backlog = new BacklogSignal(abort.signal);

  /**
   * One poller: receive a batch, handle it, receive the next. Poller 0 always polls (every
   * `idleMs` while the queue is empty); the others join when a receive comes back full — a
   * backlog — and go back to waiting once the queue runs dry, so an idle queue costs one receive
   * per `idleMs`, not one per poller (Lambda scales its pollers with the backlog the same way).
   */
  async function poll(index: number): Promise<void> {
    if (index > 0) await backlog.wait(HELPER_IDLE_MS);
    while (!abort.signal.aborted) {
      await gate.pass();
      if (abort.signal.aborted) break;
      try {
        const { Messages } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: 0,
            AttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        );
        const received = Messages?.length ?? 0;
        if (received === batchSize) backlog.signal();
        if (received > 0) await handleBatch(Messages!).catch((error: unknown) => log('batch failed', error));
        if (received < batchSize) {
          if (index > 0) await backlog.wait(HELPER_IDLE_MS);
          else if (received === 0) await pause(options.idleMs ?? 100, abort.signal);
        }
      } catch (error) {
        if (abort.signal.aborted) break;
        log('receiving failed; retrying in 1 s', error);
        await pause(1000, abort.signal);
      }
    }
  }

  const running = Promise.all(Array.from({ length: concurrency }, (_, index) => poll(index)));
  return pollerHandle(gate, abort, running, () => client.destroy());
}

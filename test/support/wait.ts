/**
 * Waiting on observable conditions instead of sleeping: `eventually` polls until something has
 * happened (with a deadline); `deliveryQueuesDrained` proves that something did *not* happen —
 * every message sent so far to the deliveries queue and its DLQ has been handled to the end by the
 * local workers (a message is counted while it waits, while it is being handled and while it is
 * hidden for a retry, until it is deleted), so nothing more can come of it.
 */
import { GetQueueAttributesCommand, type QueueAttributeName } from '@aws-sdk/client-sqs';
import { sqs } from '#shared/clients/sqs';
import { config } from '#shared/config';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds (eventual consistency of indexes, asynchronous pipeline); the last value after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) return value;
    await pause(200);
  }
}

const counters = [
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
] as const satisfies QueueAttributeName[];

/**
 * Messages in a queue not yet deleted — waiting, in flight (being handled or hidden for a retry)
 * or delayed; 0 exactly when it is empty.
 */
export async function messagesIn(queueUrl: string): Promise<number> {
  const { Attributes = {} } = await sqs().send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: counters }));
  // The emulator counts in-flight messages in ApproximateNumberOfMessages too (SQS does not), so
  // the sum may count one twice: it is zero exactly when the queue is empty, which is what callers ask.
  return counters.reduce((sum, name) => sum + Number(Attributes[name] ?? 0), 0);
}

/**
 * Resolves once the deliveries queue and its DLQ are both empty (every message sent before the
 * call has been handled and deleted); fails after `timeoutMs`. Other test files may be using the
 * pipeline at the same time: that only makes the wait longer, never wrong.
 */
export async function deliveryQueuesDrained(timeoutMs = 20_000): Promise<void> {
  const queues = [config().deliveriesQueueUrl, config().deliveriesDlqUrl];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await Promise.all(queues.map(messagesIn));
    if (counts.every((count) => count === 0)) return;
    if (Date.now() > deadline)
      throw new Error(`the delivery queues did not drain within ${timeoutMs} ms (${counts.join(' and ')} message(s) left)`);
    await pause(100);
  }
}

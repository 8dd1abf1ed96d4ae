/**
 * The queue workers' pure parts, on the stored SQS fixture (test/fixtures/sqs-event-delivery-message.json):
 * the delivery handler drops what is not a delivery message, the DLQ handler too, and
 * `processQueueBatch` reports retries and thrown messages as batch item failures. The SQS client
 * and the delivery attempt itself are mocked.
 */
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { markDeadLettered } from '#events/dead-letter';
import { processDeliveryMessage } from '#events/delivery';
import { handler as deliver } from '#functions/events/deliver';
import { processQueueBatch, type MessageOutcome } from '#shared/queues/partial-batch';
import { finishDelivery, readDelivery } from '#shared/webhooks/delivery-repository';
import { pendingDelivery } from '#shared/webhooks/stored';
import { fixtureDeliveryMessage, sqsEvent, sqsPoisonRecord, sqsRecord } from '#test/support/lambda-events';

const send = vi.fn();
vi.mock('#shared/clients/sqs', () => ({ sqs: () => ({ send }), setSqs: vi.fn() }));
vi.mock('#events/delivery', () => ({ processDeliveryMessage: vi.fn() }));
vi.mock('#shared/webhooks/delivery-repository', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  readDelivery: vi.fn(),
  finishDelivery: vi.fn(),
}));

beforeEach(() => {
  send.mockReset().mockResolvedValue({});
  vi.mocked(processDeliveryMessage).mockReset().mockResolvedValue({ kind: 'done' });
  vi.mocked(readDelivery).mockReset().mockResolvedValue(undefined);
});

const notDeliveryMessages: [string, string | Record<string, unknown>][] = [
  ['a body that is not JSON', 'hello'],
  ['an empty body', ''],
  ['JSON that is not an object', '[1,2,3]'],
  ['another version of the message', { ...fixtureDeliveryMessage(), v: 2 }],
  ['a malformed delivery id', { ...fixtureDeliveryMessage(), delivery_id: 'del_1' }],
  ['an unknown mode', { ...fixtureDeliveryMessage(), mode: 'staging' }],
  ['a message without its token', { ...fixtureDeliveryMessage(), token: undefined }],
];

describe('the delivery handler', () => {
  it('hands a delivery message (the stored fixture) to the delivery attempt, parsed, with its raw body', async () => {
    const event = sqsEvent();
    const response = await deliver(event);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(vi.mocked(processDeliveryMessage)).toHaveBeenCalledOnce();
    const [message, rawBody] = vi.mocked(processDeliveryMessage).mock.calls[0]!;
    expect(message).toEqual(fixtureDeliveryMessage());
    expect(rawBody).toBe(event.Records[0]!.body);
  });

  it.each(notDeliveryMessages)('drops %s: no attempt, and the message is deleted (not reported as failed)', async (_name, body) => {
    const response = await deliver(sqsEvent(sqsRecord({ body })));
    expect(response).toEqual({ batchItemFailures: [] });
    expect(vi.mocked(processDeliveryMessage)).not.toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
  });

  it('attempts the delivery messages of a batch and drops the others', async () => {
    const good = sqsRecord({ messageId: 'good' });
    const bad = sqsRecord({ messageId: 'bad', body: '{"hello":"world"}' });
    const response = await deliver(sqsEvent(good, bad));
    expect(response).toEqual({ batchItemFailures: [] });
    expect(vi.mocked(processDeliveryMessage)).toHaveBeenCalledOnce();
  });
});

describe('the dead-letter handler', () => {
  it.each(notDeliveryMessages)('drops %s without reading anything', async (_name, body) => {
    expect(await markDeadLettered(sqsRecord({ body }))).toEqual({ kind: 'done' });
    expect(vi.mocked(readDelivery)).not.toHaveBeenCalled();
  });

  it('fails the delivery a poison message names (the stored one: moved by SQS after its receives) while it is that chain', async () => {
    const message = fixtureDeliveryMessage();
    const tenant = { accountId: String(message.account_id), mode: message.mode as 'test' };
    const delivery = pendingDelivery({
      id: String(message.delivery_id),
      webhook_id: Number(message.webhook_id),
      event_id: String(message.event_id),
      event: 'customer.created',
      test: false,
      token: String(message.token),
      created_at: '2025-11-24T10:15:31.000Z',
      expires_at: 1_766_571_330,
    });
    const now = new Date('2025-11-25T10:00:00.000Z');
    vi.mocked(readDelivery).mockResolvedValue(delivery);
    expect(await markDeadLettered(sqsPoisonRecord(), now)).toEqual({ kind: 'done' });
    expect(vi.mocked(finishDelivery)).toHaveBeenCalledWith(
      tenant,
      delivery,
      'failed',
      'dead-lettered: the delivery kept failing to be processed',
      now.toISOString(),
      { token: message.token, deadLettered: true },
    );
    // Another chain took the delivery over since (a redelivery): the poison message changes nothing.
    vi.mocked(finishDelivery).mockClear();
    vi.mocked(readDelivery).mockResolvedValue({ ...delivery, token: 'Zz9Yy8Xx7Ww6Vv5U' });
    expect(await markDeadLettered(sqsPoisonRecord(), now)).toEqual({ kind: 'done' });
    expect(vi.mocked(finishDelivery)).not.toHaveBeenCalled();
  });

  it('reads the delivery a dead-lettered delivery message names', async () => {
    expect(await markDeadLettered(sqsRecord())).toEqual({ kind: 'done' });
    const message = fixtureDeliveryMessage();
    expect(vi.mocked(readDelivery)).toHaveBeenCalledWith({ accountId: message.account_id, mode: message.mode }, message.delivery_id);
  });
});

describe('processQueueBatch', () => {
  const queueUrl = 'http://127.0.0.1:9324/000000000000/print-shop-test-deliveries';
  const records = {
    done: sqsRecord({ messageId: 'done', receiptHandle: 'receipt-done' }),
    retry: sqsRecord({ messageId: 'retry', receiptHandle: 'receipt-retry' }),
    thrown: sqsRecord({ messageId: 'thrown', receiptHandle: 'receipt-thrown' }),
  };
  const outcomes: Record<string, () => Promise<MessageOutcome>> = {
    done: async () => ({ kind: 'done' }),
    retry: async () => ({ kind: 'retry', visibilitySeconds: 60 }),
    thrown: async () => {
      throw new Error('DynamoDB is down');
    },
  };
  const handle = (record: SQSRecord) => outcomes[record.messageId]!();

  it('reports the retried and the thrown messages as batch item failures, and only those', async () => {
    const response = await processQueueBatch(sqsEvent(records.done, records.retry, records.thrown), queueUrl, handle);
    expect(response.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(['retry', 'thrown']);
  });

  it('hides a retried message for its wait (ChangeMessageVisibility), and nothing else', async () => {
    await processQueueBatch(sqsEvent(records.done, records.retry, records.thrown), queueUrl, handle);
    expect(send).toHaveBeenCalledOnce();
    const [command] = send.mock.calls[0]!;
    expect(command).toBeInstanceOf(ChangeMessageVisibilityCommand);
    expect(command.input).toEqual({ QueueUrl: queueUrl, ReceiptHandle: 'receipt-retry', VisibilityTimeout: 60 });
  });

  it('reports a retry whose visibility change failed too (it comes back after the queue timeout)', async () => {
    send.mockRejectedValue(new Error('SQS is down'));
    const response = await processQueueBatch(sqsEvent(records.retry), queueUrl, handle);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'retry' }]);
  });

  it('reports nothing for a batch that went through', async () => {
    expect(await processQueueBatch(sqsEvent(records.done), queueUrl, handle)).toEqual({ batchItemFailures: [] });
  });
});

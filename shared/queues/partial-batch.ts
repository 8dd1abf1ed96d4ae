/**
 * Runs a queue handler over an SQS batch with partial failures (`ReportBatchItemFailures`): each
 * message is handled on its own; one that should come back later gets its visibility set to the
 * wait and is reported as failed (so it is not deleted), and one whose handling threw is reported
 * too and comes back after the queue's visibility timeout. The rest are deleted by the caller
 * (Lambda on AWS, the local poller here).
 */
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sqs } from '#shared/clients/sqs';
import { logger } from '#shared/logger';

/** What should happen to a message: delete it (`done`), or hide it for a while and report it as failed (`retry`). */
export type MessageOutcome = { kind: 'done' } | { kind: 'retry'; visibilitySeconds: number };

export async function processQueueBatch(
  event: SQSEvent,
  queueUrl: string,
  handle: (record: SQSRecord) => Promise<MessageOutcome>,
): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchItemFailure[] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const outcome = await handle(record);
        if (outcome.kind === 'retry') {
          await sqs().send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: queueUrl,
              ReceiptHandle: record.receiptHandle,
              VisibilityTimeout: outcome.visibilitySeconds,
            }),
          );
          batchItemFailures.push({ itemIdentifier: record.messageId });
        }
      } catch (error) {
        logger.error('queue message failed; it will be retried', { message_id: record.messageId, error: error as Error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures };
}

import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { markDeadLettered } from '#events/dead-letter';
import { processQueueBatch } from '#shared/queues/partial-batch';
import { config } from '#shared/config';

/** Deliveries DLQ → the delivery is marked failed. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> =>
  processQueueBatch(event, config().deliveriesDlqUrl, (record) => markDeadLettered(record));

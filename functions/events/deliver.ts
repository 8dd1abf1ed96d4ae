import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processDeliveryMessage } from '#events/delivery';
import { deliveryBatch } from '#events/delivery-batch';
import { parseDeliveryMessage } from '#shared/webhooks/messages';
import { processQueueBatch } from '#shared/queues/partial-batch';
import { config } from '#shared/config';
import { logger } from '#shared/logger';

/** Deliveries queue → signed POSTs; retries by message visibility, partial batch failures. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  // The batch's messages share their reads and attempt writes (events/delivery-batch.ts).
  const batch = deliveryBatch(event.Records.length);
  return processQueueBatch(event, config().deliveriesQueueUrl, async (record) => {
    const { context, finish } = batch.message();
    try {
      const message = parseDeliveryMessage(record.body);
      if (message) return await processDeliveryMessage(message, record.body, new Date(), context);
      logger.error('not a delivery message; dropped', { message_id: record.messageId });
      return { kind: 'done' };
    } finally {
      finish();
    }
  });
};

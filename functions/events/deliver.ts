import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { processDeliveryMessage } from '../../events/delivery';
import { parseDeliveryMessage } from '../../events/messages';
import { processQueueBatch } from '../../events/queue-batch';
import { config } from '../../shared/config';
import { logger } from '../../shared/logger';

/** Deliveries queue → signed POSTs; retries by message visibility, partial batch failures. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> =>
  processQueueBatch(event, config().deliveriesQueueUrl, async (record) => {
    const message = parseDeliveryMessage(record.body);
    if (message) return processDeliveryMessage(message, record.body);
    logger.error('not a delivery message; dropped', { message_id: record.messageId });
    return { kind: 'done' };
  });

/**
 * The DLQ handler's job: a delivery whose message reached the dead-letter queue is `failed`.
 * Messages arrive there in two ways: the delivery worker moves them after the last attempt of the
 * schedule (with a `reason` attribute), or SQS redrives one that kept failing to be processed
 * (maxReceiveCount). Either way the delivery is marked failed if the message is still its current
 * chain; the record (with all attempts) is what stays, and the API can redeliver it.
 */
import type { SQSRecord } from 'aws-lambda';
import { logger } from '#shared/logger';
import { finishDelivery, readDelivery } from '#shared/webhooks/delivery-repository';
import type { MessageOutcome } from '#shared/queues/partial-batch';
import { parseDeliveryMessage, tenantOf } from '#shared/webhooks/messages';

export async function markDeadLettered(record: SQSRecord, now = new Date()): Promise<MessageOutcome> {
  const message = parseDeliveryMessage(record.body);
  if (!message) {
    logger.error('dead-lettered message is not a delivery message; dropped', { message_id: record.messageId });
    return { kind: 'done' };
  }
  const tenant = tenantOf(message);
  const delivery = await readDelivery(tenant, message.delivery_id);
  if (!delivery || delivery.status !== 'pending' || delivery.token !== message.token) return { kind: 'done' };
  const reason = record.messageAttributes?.reason?.stringValue
    ? `dead-lettered: ${record.messageAttributes.reason.stringValue}`
    : 'dead-lettered: the delivery kept failing to be processed';
  await finishDelivery(tenant, delivery, 'failed', reason, now.toISOString(), { token: message.token, deadLettered: true });
  logger.warn('webhook delivery failed', { delivery_id: delivery.id, webhook_id: delivery.webhook_id, reason });
  return { kind: 'done' };
}

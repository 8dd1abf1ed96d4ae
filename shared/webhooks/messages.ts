/**
 * The deliveries queue's message: just enough to find the delivery. Everything else (URL,
 * secret, event) is read when the message is handled, so a retry always uses the registration's
 * current settings. `token` names the message chain the delivery item currently expects; a
 * message with another token is a superseded duplicate and is dropped without an attempt.
 *
 * `event_id` (optional; messages sent before it existed lack it) only lets the worker read the
 * delivery, its registration and its event in one batched read instead of two in a row; the
 * delivery item stays the authority — a message naming anything else is read by the item's ids.
 */
import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import * as z from 'zod';
import type { Tenant } from '#shared/auth/principal';
import { sqs } from '#shared/clients/sqs';
import { config } from '#shared/config';
import { DELIVERY_ID_PATTERN } from './delivery-id';

const MessageSchema = z.object({
  v: z.literal(1),
  account_id: z.string().min(1),
  mode: z.enum(['test', 'live']),
  webhook_id: z.number().int().positive(),
  delivery_id: z.string().regex(DELIVERY_ID_PATTERN),
  token: z.string().min(1),
  event_id: z.string().min(1).optional(),
});

export type DeliveryMessage = z.output<typeof MessageSchema>;

export function deliveryMessage(tenant: Tenant, webhookId: number, deliveryId: string, token: string, eventId?: string): DeliveryMessage {
  return {
    v: 1,
    account_id: tenant.accountId,
    mode: tenant.mode,
    webhook_id: webhookId,
    delivery_id: deliveryId,
    token,
    ...(eventId === undefined ? {} : { event_id: eventId }),
  };
}

export const tenantOf = (message: DeliveryMessage): Tenant => ({ accountId: message.account_id, mode: message.mode });

/** Undefined for anything that is not one of our messages (it is logged and dropped by the caller). */
export function parseDeliveryMessage(body: string): DeliveryMessage | undefined {
  try {
    const result = MessageSchema.safeParse(JSON.parse(body));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/** Sends messages in batches of 10; throws if any entry failed, so the caller's batch is retried. */
export async function sendDeliveryMessages(messages: DeliveryMessage[], queueUrl = config().deliveriesQueueUrl): Promise<void> {
  for (let start = 0; start < messages.length; start += 10) {
    const chunk = messages.slice(start, start + 10);
    const result = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
      }),
    );
    if (result.Failed?.length) {
      throw new Error(
        `SQS refused ${result.Failed.length} delivery message(s): ${result.Failed.map((failure) => failure.Message).join('; ')}`,
      );
    }
  }
}

/** Moves a delivery's message to the DLQ (after its last attempt), body unchanged. */
export async function sendToDeadLetterQueue(body: string, reason: string): Promise<void> {
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: config().deliveriesDlqUrl,
      MessageBody: body,
      MessageAttributes: { reason: { DataType: 'String', StringValue: reason } },
    }),
  );
}

import * as z from 'zod';
import { eventKinds } from '#shared/events/catalogue';
import { paginationQuery } from '#shared/schemas/pagination';
import { optionalText, timestamp } from '#shared/schemas/common';
import { MAX_KEPT_ATTEMPTS } from './limits';

/** What may be subscribed to: `["*"]` (everything, including kinds added later) or catalogue kinds. */
export const subscribableKinds = ['*', ...eventKinds] as const;
const validKindsText = subscribableKinds.join(', ');

const url = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .meta({ example: 'https://example.com/webhooks/print-shop', description: 'https only; must reach the public internet' });

const kind = z.string().refine((value) => (subscribableKinds as readonly string[]).includes(value), {
  error: (issue) => `unknown event kind ${JSON.stringify(issue.input)}; valid kinds: ${validKindsText}`,
});

const events = z
  .array(kind)
  .min(1, `must list at least one event kind, or "*"; valid kinds: ${validKindsText}`)
  .max(subscribableKinds.length, `must list at most ${subscribableKinds.length} kinds`)
  .refine((list) => !list.includes('*') || list.length === 1, '"*" already means every kind; send it alone')
  .transform((list) => [...new Set(list)])
  .meta({ example: ['order.created', 'customer.created'], description: `Event kinds, or ["*"] for all. Valid: ${validKindsText}` });

const description = optionalText(500).meta({ example: 'ERP sync' });

export const WebhookCreateSchema = z
  .strictObject({ url, events, active: z.boolean().optional().default(true), description })
  .meta({ id: 'WebhookCreate' });

export const WebhookUpdateSchema = z
  .strictObject({ url: url.optional(), events: events.optional(), active: z.boolean().optional(), description })
  .meta({ id: 'WebhookUpdate', description: 'Only the fields sent are changed; null clears the description.' });

export const WebhookSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    description: z.string().nullable(),
    secret: z.string().meta({
      description: 'The signing secret in full only in the answers to create and rotate-secret; elsewhere a hint such as whsec_…AbCd',
      example: 'whsec_…AbCd',
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Webhook' });

export const deliveryStatuses = ['pending', 'succeeded', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const DeliveryListQuerySchema = z.strictObject({
  ...paginationQuery,
  status: z.enum(deliveryStatuses).optional().meta({ description: 'Only deliveries in this status' }),
  event: z
    .string()
    .refine((value) => (eventKinds as readonly string[]).includes(value), {
      error: (issue) => `unknown event kind ${JSON.stringify(issue.input)}; valid kinds: ${eventKinds.join(', ')}`,
    })
    .optional()
    .meta({ description: 'Only deliveries of this event kind' }),
});

export const DeliveryAttemptSchema = z
  .object({
    attempt: z.number().int(),
    attempted_at: timestamp,
    status_code: z.number().int().nullable(),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    response_body: z.string().nullable().meta({ description: 'The first 1024 characters of the answer' }),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

const deliveryFields = {
  id: z.string().meta({ example: 'wh_0dYc3K2a8Xw1kZp4Qr7Tn2Lm' }),
  webhook_id: z.number().int(),
  event_id: z.string(),
  event: z.string(),
  test: z.boolean(),
  status: z.enum(deliveryStatuses),
  attempt_count: z.number().int(),
  last_attempt_at: timestamp.nullable(),
  next_attempt_at: timestamp.nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
};

export const DeliverySchema = z.object(deliveryFields).meta({ id: 'WebhookDelivery' });

export const DeliveryDetailSchema = z
  .object({
    ...deliveryFields,
    payload: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The body sent (null once its event has expired)' }),
    attempts: z.array(DeliveryAttemptSchema).meta({ description: `The ${MAX_KEPT_ATTEMPTS} most recent attempts, oldest first (attempt_count counts them all)` }),
  })
  .meta({ id: 'WebhookDeliveryDetail' });

export const WebhookTestSchema = z
  .strictObject({
    event: z
      .enum(eventKinds)
      .optional()
      .meta({ description: 'Kind of the sample event; defaults to the first kind the webhook subscribes to' }),
  })
  .meta({ id: 'WebhookTest' });

export type WebhookCreate = z.output<typeof WebhookCreateSchema>;
export type WebhookUpdate = z.output<typeof WebhookUpdateSchema>;
export type Webhook = z.output<typeof WebhookSchema>;
export type DeliveryListQuery = z.output<typeof DeliveryListQuerySchema>;
export type Delivery = z.output<typeof DeliverySchema>;
export type DeliveryDetail = z.output<typeof DeliveryDetailSchema>;
export type DeliveryAttempt = z.output<typeof DeliveryAttemptSchema>;
export type WebhookTest = z.output<typeof WebhookTestSchema>;

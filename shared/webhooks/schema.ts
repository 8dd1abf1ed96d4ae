import * as z from 'zod';
import { codecSchema, responseSchema } from '#shared/schemas/response';
import { eventKinds } from '#shared/events/catalogue';
import { paginationQuery } from '#shared/schemas/pagination';
import { optionalText, storableText } from '#shared/schemas/common';
import { DELIVERY_ID_PATTERN } from './delivery-id';
import { MAX_KEPT_ATTEMPTS } from './limits';
import { DELIVERY_STATUSES, storedAttempt, storedDelivery, storedWebhook } from './stored';

/** What may be subscribed to: `["*"]` (everything, including kinds added later) or catalogue kinds. */
export const subscribableKinds = ['*', ...eventKinds] as const;
const validKindsText = /* @__PURE__ */ subscribableKinds.join(', ');

const url = /* @__PURE__ */ (() =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(2048, 'must be at most 2048 characters')
    .superRefine(storableText())
    .meta({ example: 'https://example.com/webhooks/print-shop', description: 'https only; must reach the public internet' }))();

const kind = /* @__PURE__ */ (() =>
  z.string().refine((value) => (subscribableKinds as readonly string[]).includes(value), {
    error: (issue) => `unknown event kind ${JSON.stringify(issue.input)}; valid kinds: ${validKindsText}`,
  }))();

const events = /* @__PURE__ */ (() =>
  z
    .array(kind)
    .min(1, `must list at least one event kind, or "*"; valid kinds: ${validKindsText}`)
    .max(subscribableKinds.length, `must list at most ${subscribableKinds.length} kinds`)
    .refine((list) => !list.includes('*') || list.length === 1, '"*" already means every kind; send it alone')
    .transform((list) => [...new Set(list)])
    .meta({ example: ['order.created', 'customer.created'], description: `Event kinds, or ["*"] for all. Valid: ${validKindsText}` }))();

const description = /* @__PURE__ */ (() => optionalText(500, { multiline: true }).meta({ example: 'ERP sync' }))();

export const WebhookCreateSchema = /* @__PURE__ */ z
  .strictObject({ url, events, active: z.boolean().optional().default(true), description })
  .meta({ id: 'WebhookCreate' });

export const WebhookUpdateSchema = /* @__PURE__ */ z
  .strictObject({ url: url.optional(), events: events.optional(), active: z.boolean().optional(), description })
  .meta({ id: 'WebhookUpdate', description: 'Only the fields sent are changed; null clears the description.' });

/** A registration as responses show it: derived from the stored field list (stored.ts). */
export const WebhookSchema = /* @__PURE__ */ (() => responseSchema(storedWebhook, { id: 'Webhook' }))();

export const DeliveryListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this status' }),
      event: z
        .string()
        .refine((value) => (eventKinds as readonly string[]).includes(value), {
          error: (issue) => `unknown event kind ${JSON.stringify(issue.input)}; valid kinds: ${eventKinds.join(', ')}`,
        })
        .optional()
        .meta({ description: 'Only deliveries of this event kind' }),
      starting_after: z.string().regex(DELIVERY_ID_PATTERN, 'must be a delivery id (wh_…)').optional().meta({
        description: "Cursor: the deliveries after (older than) this one — the previous page's pagination.next_cursor; not with page > 1",
      }),
    })
    .refine((query) => query.starting_after === undefined || query.page === 1, {
      message: 'use either page or starting_after',
      path: ['page'],
    }))();

/** A delivery as lists show it: derived from the stored field list (stored.ts). */
export const DeliverySchema = /* @__PURE__ */ (() => responseSchema(storedDelivery, { id: 'WebhookDelivery' }))();

export const DeliveryAttemptSchema = /* @__PURE__ */ (() => codecSchema(storedAttempt))();

/** One delivery with its payload and kept attempts. */
export const DeliveryDetailSchema = /* @__PURE__ */ (() =>
  DeliverySchema.extend({
    payload: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The body sent (null once its event has expired)' }),
    attempts: z
      .array(DeliveryAttemptSchema)
      .meta({ description: `The ${MAX_KEPT_ATTEMPTS} most recent attempts, oldest first (attempt_count counts them all)` }),
  }).meta({ id: 'WebhookDeliveryDetail' }))();

export const WebhookTestSchema = /* @__PURE__ */ z
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
export type DeliveryAttempt = DeliveryDetail['attempts'][number];
export type WebhookTest = z.output<typeof WebhookTestSchema>;

import * as z from 'zod';
import { DELIVERY_ID_PATTERN } from './delivery-id';
import type { Operation } from '#shared/schemas/operation';
import {
  webhooksCreate,
  webhooksDelete,
  webhooksDeliveries,
  webhooksDelivery,
  webhooksGet,
  webhooksList,
  webhooksRedeliver,
  webhooksRotateSecret,
  webhooksTest,
  webhooksUpdate,
} from '#shared/routes';
import { paginationQuery } from '#shared/schemas/pagination';
import { idPath, pathId } from '#shared/schemas/common';
import {
  DeliveryDetailSchema,
  DeliveryListQuerySchema,
  DeliverySchema,
  WebhookCreateSchema,
  WebhookSchema,
  WebhookTestSchema,
  WebhookUpdateSchema,
} from './schema';

const webhookPath = /* @__PURE__ */ idPath('Webhook id');
const deliveryPath = /* @__PURE__ */ (() =>
  z.object({
    id: pathId,
    deliveryId: z
      .string()
      .regex(DELIVERY_ID_PATTERN)
      .meta({ description: 'Delivery id (wh_…)', param: { name: 'deliveryId', in: 'path' } }),
  }))();
const deleted = /* @__PURE__ */ z
  .object({ id: z.number().int(), deleted: z.literal(true), url: z.string() })
  .meta({ id: 'WebhookDeleted' });
const testSent = /* @__PURE__ */ z
  .object({ success: z.literal(true), message: z.literal('Test webhook sent') })
  .meta({ id: 'WebhookTestSent', description: 'The sample event is on its way; its delivery appears in the delivery history.' });

// Handlers import this module as a namespace (`import * as webhookOperations`) and the schemas are
// marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
const listQuery = /* @__PURE__ */ z.strictObject({ ...paginationQuery });

export const list = {
  route: webhooksList,
  query: listQuery,
  list: true,
} satisfies Operation;
export const create = {
  route: webhooksCreate,
  body: WebhookCreateSchema,
  status: 201,
  errors: [409],
} satisfies Operation;
export const get = { route: webhooksGet, params: webhookPath, errors: [404] } satisfies Operation;
export const update = {
  route: webhooksUpdate,
  params: webhookPath,
  body: WebhookUpdateSchema,
  errors: [404, 409],
} satisfies Operation;
const deleteOperation = { route: webhooksDelete, params: webhookPath, errors: [404] } satisfies Operation;
export { deleteOperation as delete };
export const rotateSecret = {
  route: webhooksRotateSecret,
  params: webhookPath,
  errors: [404, 409],
} satisfies Operation;
export const test = {
  route: webhooksTest,
  params: webhookPath,
  body: WebhookTestSchema,
  envelope: false,
  errors: [404, 409],
} satisfies Operation;
export const deliveries = {
  route: webhooksDeliveries,
  params: webhookPath,
  query: DeliveryListQuerySchema,
  list: true,
  errors: [404],
} satisfies Operation;
export const delivery = {
  route: webhooksDelivery,
  params: deliveryPath,
  errors: [404],
} satisfies Operation;
export const redeliver = {
  route: webhooksRedeliver,
  params: deliveryPath,
  errors: [404, 409],
} satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  delete: deleted,
  list: WebhookSchema,
  create: WebhookSchema,
  get: WebhookSchema,
  update: WebhookSchema,
  rotateSecret: WebhookSchema,
  test: testSent,
  deliveries: DeliverySchema,
  delivery: DeliveryDetailSchema,
  redeliver: DeliverySchema,
} satisfies Record<string, z.ZodType>;

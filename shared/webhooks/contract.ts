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
  response: WebhookSchema,
  list: true,
} satisfies Operation;
export const create = {
  route: webhooksCreate,
  body: WebhookCreateSchema,
  response: WebhookSchema,
  status: 201,
  errors: [409],
} satisfies Operation;
export const get = { route: webhooksGet, params: webhookPath, response: WebhookSchema, errors: [404] } satisfies Operation;
export const update = {
  route: webhooksUpdate,
  params: webhookPath,
  body: WebhookUpdateSchema,
  response: WebhookSchema,
  errors: [404, 409],
} satisfies Operation;
const deleteOperation = { route: webhooksDelete, params: webhookPath, response: deleted, errors: [404] } satisfies Operation;
export { deleteOperation as delete };
export const rotateSecret = {
  route: webhooksRotateSecret,
  params: webhookPath,
  response: WebhookSchema,
  errors: [404, 409],
} satisfies Operation;
export const test = {
  route: webhooksTest,
  params: webhookPath,
  body: WebhookTestSchema,
  response: testSent,
  envelope: false,
  errors: [404, 409],
} satisfies Operation;
export const deliveries = {
  route: webhooksDeliveries,
  params: webhookPath,
  query: DeliveryListQuerySchema,
  response: DeliverySchema,
  list: true,
  errors: [404],
} satisfies Operation;
export const delivery = {
  route: webhooksDelivery,
  params: deliveryPath,
  response: DeliveryDetailSchema,
  errors: [404],
} satisfies Operation;
export const redeliver = {
  route: webhooksRedeliver,
  params: deliveryPath,
  response: DeliverySchema,
  errors: [404, 409],
} satisfies Operation;

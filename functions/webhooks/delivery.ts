import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as webhookOperations from '#shared/webhooks/contract';
import { getWebhookDelivery } from '#shared/webhooks/delivery-service';

export const handler = defineHandler(webhookOperations.delivery, async ({ tenant, params }) =>
  ok(await getWebhookDelivery(tenant, params.id, params.deliveryId)),
);

import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as webhookOperations from '#shared/webhooks/contract';
import { updateWebhook } from '#shared/webhooks/service';

export const handler = defineHandler(webhookOperations.update, async ({ tenant, params, body }) =>
  ok(await updateWebhook(tenant, params.id, body)),
);

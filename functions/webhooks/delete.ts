import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as webhookOperations from '#shared/webhooks/contract';
import { deleteWebhook } from '#shared/webhooks/service';

export const handler = defineHandler(webhookOperations.delete, async ({ tenant, params }) => ok(await deleteWebhook(tenant, params.id)));

import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as webhookOperations from '#shared/webhooks/contract';
import { getWebhook } from '#shared/webhooks/service';

export const handler = defineHandler(webhookOperations.get, async ({ tenant, params }) => ok(await getWebhook(tenant, params.id)));

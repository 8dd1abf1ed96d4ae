import { defineHandler } from '../../shared/http/handler';
import { created } from '../../shared/http/envelope';
import { webhookOperations } from '../../shared/webhooks/contract';
import { createWebhook } from '../../shared/webhooks/service';

export const handler = defineHandler(webhookOperations.create, async ({ tenant, body }) => created(await createWebhook(tenant, body)));

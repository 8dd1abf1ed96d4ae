import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as webhookOperations from '#shared/webhooks/contract';
import { createWebhook, withSecretHint } from '#shared/webhooks/service';

export const handler = defineHandler(webhookOperations.create, async ({ tenant, body }) => created(await createWebhook(tenant, body)), {
  idempotency: idempotent({ replayView: withSecretHint }),
});

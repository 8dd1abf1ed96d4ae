import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as webhookOperations from '#shared/webhooks/contract';
import { rotateSecret, withSecretHint } from '#shared/webhooks/service';

export const handler = defineHandler(
  webhookOperations.rotateSecret,
  async ({ tenant, params }) => ok(await rotateSecret(tenant, params.id)),
  { idempotency: idempotent({ replayView: withSecretHint }) },
);

import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { ok } from '#shared/http/envelope';
import * as webhookOperations from '#shared/webhooks/contract';
import { redeliver } from '#shared/webhooks/delivery-service';

export const handler = defineHandler(
  webhookOperations.redeliver,
  async ({ tenant, params }) => ok(await redeliver(tenant, params.id, params.deliveryId)),
  { idempotency: idempotent() },
);

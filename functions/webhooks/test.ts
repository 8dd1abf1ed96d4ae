import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import * as webhookOperations from '#shared/webhooks/contract';
import { sendTestEvent } from '#shared/webhooks/delivery-service';

/** Also served at /api/v1/webhooks/{id}/test (the spec's alias). The answer is the spec's, without `data`. */
export const handler = defineHandler(
  webhookOperations.test,
  async ({ tenant, params, body }) => {
    await sendTestEvent(tenant, params.id, body.event);
    return { status: 200, body: { success: true, message: 'Test webhook sent' } };
  },
  { idempotency: idempotent() },
);

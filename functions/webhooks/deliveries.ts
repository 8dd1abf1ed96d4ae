import { defineHandler } from '#shared/http/handler';
import { listed, pagination } from '#shared/http/envelope';
import * as webhookOperations from '#shared/webhooks/contract';
import { listWebhookDeliveries } from '#shared/webhooks/delivery-service';

export const handler = defineHandler(webhookOperations.deliveries, async ({ tenant, params, query }) => {
  const { items, total, capped, hasMore, next } = await listWebhookDeliveries(tenant, params.id, query);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor: next ?? null }));
});

import { defineHandler } from '#shared/http/handler';
import { listed, pagination } from '#shared/http/envelope';
import * as webhookOperations from '#shared/webhooks/contract';
import { listWebhooks } from '#shared/webhooks/service';

export const handler = defineHandler(webhookOperations.list, async ({ tenant, query }) => {
  const { items, total } = await listWebhooks(tenant, query.page, query.per_page);
  return listed(items, pagination(query.page, query.per_page, total));
});

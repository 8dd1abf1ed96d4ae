import * as auditOperations from '#shared/audit/contract';
import { listAudit } from '#shared/audit/service';
import { defineHandler } from '#shared/http/handler';
import { listed, pagination } from '#shared/http/envelope';

export const handler = defineHandler(auditOperations.list, async ({ tenant, query }) => {
  const { items, total } = await listAudit(tenant, query);
  return listed(items, pagination(query.page, query.per_page, total));
});

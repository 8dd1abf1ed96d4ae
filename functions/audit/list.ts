import * as auditOperations from '#shared/audit/contract';
import { listAudit } from '#shared/audit/service';
import { defineHandler } from '#shared/http/handler';
import { cursorPagination, listed } from '#shared/http/envelope';

export const handler = defineHandler(auditOperations.list, async ({ tenant, query }) => {
  const { items, next } = await listAudit(tenant, query);
  return listed(items, cursorPagination(query.per_page, next));
});

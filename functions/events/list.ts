import * as eventOperations from '#shared/event-log/contract';
import { listEvents } from '#shared/event-log/service';
import { defineHandler } from '#shared/http/handler';
import { cursorPagination, listed } from '#shared/http/envelope';

export const handler = defineHandler(eventOperations.list, async ({ tenant, query }) => {
  const { items, next } = await listEvents(tenant, query);
  return listed(items, cursorPagination(query.per_page, next));
});

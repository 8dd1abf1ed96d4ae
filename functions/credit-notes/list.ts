import * as creditNoteOperations from '#shared/credit-notes/contract';
import { listCreditNotes } from '#shared/credit-notes/service';
import { listed, nextIdCursor, pagination } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

export const handler = defineHandler(creditNoteOperations.listCreditNotes, async ({ tenant, query }) => {
  const { items, total, capped, hasMore } = await listCreditNotes(tenant, query);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore, nextCursor: nextIdCursor(items, hasMore) }));
});

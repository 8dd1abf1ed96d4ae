import { listed, pagination } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import * as proofOperations from '#shared/proofs/contract';
import { listProofs } from '#shared/proofs/service';

export const handler = defineHandler(proofOperations.list, async ({ tenant, principal, params, query }) => {
  const { items, total, capped, hasMore } = await listProofs(tenant, principal, params.id, query);
  return listed(items, pagination(query.page, query.per_page, total, { capped, hasMore }));
});

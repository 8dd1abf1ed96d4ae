import { ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import * as proofOperations from '#shared/proofs/contract';
import { getProof } from '#shared/proofs/service';

export const handler = defineHandler(proofOperations.get, async ({ tenant, principal, params }) =>
  ok(await getProof(tenant, principal, params.id)),
);

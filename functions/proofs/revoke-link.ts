import { ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import * as proofOperations from '#shared/proofs/contract';
import { revokeLink } from '#shared/proofs/service';

export const handler = defineHandler(proofOperations.revokeLink, async ({ tenant, params }) => ok(await revokeLink(tenant, params.id)));

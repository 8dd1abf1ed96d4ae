import { created } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { serverUrlOf } from '#shared/http/server-url';
import * as proofOperations from '#shared/proofs/contract';
import { createProof } from '#shared/proofs/creation';

/** No Idempotency-Key: the answer carries the link's token, which is never stored in the clear (an idempotency record would). */
export const handler = defineHandler(proofOperations.create, async ({ tenant, params, body, headers, event }) =>
  created(await createProof(tenant, params.id, body, serverUrlOf(headers, event.path, event.requestContext) ?? '')),
);

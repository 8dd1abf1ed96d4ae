/**
 * A link holder's approval: no key, so no tenant to scope an Idempotency-Key to; a repeat is
 * refused by the proof's own state (one decision per proof: 409).
 */
import { ok } from '#shared/http/envelope';
import { definePublicHandler } from '#shared/http/public-handler';
import * as proofOperations from '#shared/proofs/contract';
import { decideByLink } from '#shared/proofs/link-access';

export const handler = definePublicHandler(proofOperations.linkApprove, async ({ params, body, headers, event }) => {
  const facts = { ip: event.requestContext?.identity?.sourceIp ?? null, userAgent: headers?.['user-agent'] ?? null };
  return ok(await decideByLink(params.token, { decision: 'approved', comment: body.comment ?? null, name: body.name ?? null }, facts));
});

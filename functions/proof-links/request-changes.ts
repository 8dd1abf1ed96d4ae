/** A link holder's request for changes (a comment required); as approve.ts, a repeat is 409 by the proof's state. */
import { ok } from '#shared/http/envelope';
import { definePublicHandler } from '#shared/http/public-handler';
import * as proofOperations from '#shared/proofs/contract';
import { decideByLink } from '#shared/proofs/link-access';

export const handler = definePublicHandler(proofOperations.linkRequestChanges, async ({ params, body, headers, event }) => {
  const facts = { ip: event.requestContext?.identity?.sourceIp ?? null, userAgent: headers?.['user-agent'] ?? null };
  return ok(await decideByLink(params.token, { decision: 'changes_requested', comment: body.comment, name: body.name ?? null }, facts));
});

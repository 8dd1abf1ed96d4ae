import { ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import * as proofOperations from '#shared/proofs/contract';
import { decideAs } from '#shared/proofs/service';

export const handler = defineHandler(
  proofOperations.requestChanges,
  async ({ tenant, principal, params, body, headers, event }) => {
    const facts = { ip: event.requestContext?.identity?.sourceIp ?? null, userAgent: headers['user-agent'] ?? null };
    const decision = { decision: 'changes_requested' as const, comment: body.comment, name: body.name ?? null };
    return ok(await decideAs(tenant, principal, params.id, decision, facts));
  },
  { idempotency: idempotent() },
);

import { ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import * as proofOperations from '#shared/proofs/contract';
import { decideAs } from '#shared/proofs/service';

export const handler = defineHandler(
  proofOperations.approve,
  async ({ tenant, principal, params, body, headers, event }) => {
    const facts = { ip: event.requestContext?.identity?.sourceIp ?? null, userAgent: headers['user-agent'] ?? null };
    const decision = { decision: 'approved' as const, comment: body.comment ?? null, name: body.name ?? null };
    return ok(await decideAs(tenant, principal, params.id, decision, facts));
  },
  { idempotency: idempotent() },
);

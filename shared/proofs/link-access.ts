/**
 * What a proof link's holder may do (docs/proofs.md#links), with no account and no key: see the
 * proof and decide on it. The token names its tenant and is looked up by its SHA-256; a token
 * that is malformed, unknown, expired or revoked is refused alike (404). Apart from service.ts:
 * only the link functions carry the S3 presigner (the proof document's download).
 */
import type { Tenant } from '#shared/auth/principal';
import { getAccount } from '#shared/accounts/repository';
import { fileKeys } from '#shared/db/keys';
import { presignedDownload } from '#shared/files/objects';
import { readFile } from '#shared/files/repository';
import { readOrder } from '#shared/orders/repository';
import { linkTokenHash, tenantOfLinkToken, unknownLink } from './links';
import * as repo from './repository';
import type { ProofLinkView } from './schema';
import { decide, presentProof, type DecisionInput, type RequestFacts } from './service';

/** The tenant and proof a token opens now; any token that does not is refused alike (404). */
async function openLink(token: string): Promise<{ tenant: Tenant; proofId: number }> {
  const tenant = tenantOfLinkToken(token);
  if (!tenant) throw unknownLink();
  const link = await repo.readLink(tenant, linkTokenHash(token));
  if (!link || link.revoked_at !== null || link.expires_at <= new Date().toISOString()) throw unknownLink();
  return { tenant, proofId: link.proof_id };
}

/**
 * `GET /v1/proof-links/{token}`: what the link's holder sees — the shop's name, the proof, the
 * lines it covers (their specification and quantity), a download of the proof document valid 15
 * minutes, and the decision once made. Nothing of any other order, customer or tenant.
 */
export async function viewLink(token: string): Promise<ProofLinkView> {
  const { tenant, proofId } = await openLink(token);
  const found = await repo.readProof(tenant, proofId, true);
  if (!found) throw unknownLink();
  const { proof, decision } = found;
  const [order, file, account] = await Promise.all([
    readOrder(tenant, proof.order_id),
    readFile(tenant, proof.file_id),
    getAccount(tenant.accountId),
  ]);
  if (!order || !file || file.status !== 'ready' || !file.content_type) throw unknownLink();
  const download = await presignedDownload(fileKeys.object(tenant, file.id), file.content_type, file.filename);
  const shown = presentProof(proof, decision);
  return {
    shop: { name: account?.name ?? '' },
    proof: {
      id: proof.id,
      order_number: proof.order_number,
      state: shown.state,
      message: proof.message,
      requires_approval: proof.requires_approval,
      expires_at: proof.expires_at,
      created_at: proof.created_at,
      decided_at: proof.decided_at,
    },
    lines: proof.line_ids.flatMap((lineId) => {
      const line = order.items.find((item) => item.id === lineId);
      if (!line) return [];
      return [
        {
          line_id: line.id,
          description: line.description,
          quantity: line.quantity,
          options: line.options,
          artwork: proof.artwork.filter((art) => art.line_id === lineId).map((art) => ({ filename: art.filename, sha256: art.sha256 })),
        },
      ];
    }),
    document: { filename: file.filename, content_type: file.content_type, ...download },
    decision: decision ? { decision: decision.decision, decided_at: decision.decided_at, comment: decision.comment } : null,
  };
}

/** `POST /v1/proof-links/{token}/approve|request-changes`: the link holder's decision (recorded as such). */
export async function decideByLink(token: string, input: DecisionInput, facts: RequestFacts): Promise<ProofLinkView> {
  const { tenant, proofId } = await openLink(token);
  await decide(tenant, proofId, input, { via: 'link' }, facts);
  return viewLink(token);
}

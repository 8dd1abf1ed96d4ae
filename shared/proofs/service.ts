/**
 * Proofs and approvals (docs/proofs.md): list and read proofs, decide on them — as the shop on
 * the customer's behalf, as the signed-in customer, or as whoever holds the proof's link
 * (link-access.ts) — and revoke a link; creation.ts makes them. Each write reads what it decides on (strongly consistent), decides with the
 * pure rules (status.ts) and hands the repository one transaction: the proof, what it supersedes,
 * the lines' approval markers, the jobs' waiting marks, the link and the event. A VersionConflict
 * (a proof or marker moved since the read) reads again; of two concurrent decisions the loser
 * reads the winner's and answers 409.
 */
import type { Principal, Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { NotFoundError, VersionConflict } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { readOrder, requireOrder } from '#shared/orders/repository';
import type { OrderRecord } from '#shared/orders/stored';
import { readJobs } from '#shared/production/repository';
import { isOpenJob } from '#shared/production/status';
import { jobApprovalWait, type JobRecord } from '#shared/production/stored';
import { proofApproved, proofChangesRequested } from './events';
import * as repo from './repository';
import type { Proof, ProofListQuery } from './schema';
import { assertDecidable, awaitsApproval, currentHashes, proofStateAt, type Decision } from './status';
import {
  decisionPut,
  lineApprovalPut,
  linkRevoke,
  proofUpdate,
  storedDecision,
  storedProof,
  type DecisionRecord,
  type LineApprovalRecord,
  type ProofRecord,
} from './stored';

const proofMoved = () => new VersionConflict('proof');
const markerMoved = () => new VersionConflict('proof approval');

/** Who calls: the principal's kind and customer (a customer token keeps to its own proofs). */
export type Caller = Pick<Principal, 'kind' | 'customerId' | 'keyPrefix'>;

/** What the request context says about where a decision came from (recorded in its record). */
export interface RequestFacts {
  ip: string | null;
  userAgent: string | null;
}

/** The proof as the API shows it at `now`: an expired pending one says so; with its decision record. */
export function presentProof(proof: ProofRecord, decision: DecisionRecord | undefined, now = new Date()): Proof {
  return {
    ...storedProof.view({ ...proof, state: proofStateAt(proof.state === 'expired' ? 'pending' : proof.state, proof.expires_at, now) }),
    decisions: decision ? [storedDecision.view(decision)] : [],
  };
}

/** A customer token reads only its own: another customer's order or proof is as unknown as a missing one. */
function assertOwn(caller: Caller, customerId: number, what: 'order' | 'proof', id: number): void {
  if (caller.kind === 'customer' && caller.customerId !== customerId) throw new NotFoundError(what, id);
}

/** The open jobs of the order's lines `lineIds` (read strongly consistent: their marks are decided on them). */
export async function jobsOfLines(tenant: Tenant, order: OrderRecord, lineIds: readonly number[]): Promise<JobRecord[]> {
  const jobs = await readJobs(tenant, order.job_ids, true);
  return jobs.filter((job) => lineIds.includes(job.order_item_id) && isOpenJob(job.status));
}

/** The waiting marks of `jobs` whose `awaiting_approval` should change (per line, by `awaiting`). */
export const jobMarks = (tenant: Tenant, jobs: readonly JobRecord[], awaiting: (lineId: number) => boolean) =>
  jobs
    .filter((job) => job.awaiting_approval !== awaiting(job.order_item_id))
    .flatMap((job) => jobApprovalWait(tenant, job, awaiting(job.order_item_id)));

// ---- Read ----------------------------------------------------------------------------------------

/** `GET /v1/orders/{id}/proofs`: the order's proofs, newest first (a customer token: only its own order's). */
export async function listProofs(tenant: Tenant, caller: Caller, orderId: number, query: ProofListQuery) {
  const order = await readOrder(tenant, orderId);
  if (!order) throw new NotFoundError('order', orderId);
  assertOwn(caller, order.customer.id, 'order', orderId);
  const page = await repo.listProofsOfOrder(tenant, orderId, { page: query.page, perPage: query.per_page });
  const decisions = await repo.readDecisions(
    tenant,
    page.items.filter((proof) => proof.state !== 'pending' && proof.state !== 'superseded').map((proof) => proof.id),
  );
  const now = new Date();
  return { ...page, items: page.items.map((proof) => presentProof(proof, decisions.get(proof.id), now)) };
}

/** `GET /v1/proofs/{id}`: the proof with its decision record. */
export async function getProof(tenant: Tenant, caller: Caller, id: number): Promise<Proof> {
  const { proof, decision } = await repo.requireProof(tenant, id);
  assertOwn(caller, proof.customer_id, 'proof', id);
  return presentProof(proof, decision);
}

// ---- Decide --------------------------------------------------------------------------------------

export interface DecisionInput {
  decision: Decision;
  comment: string | null;
  name: string | null;
}

/** Who decides, as recorded. */
export type Decider = { via: 'secret_key'; keyPrefix: string } | { via: 'customer_token'; customerId: number } | { via: 'link' };

/**
 * One decision on a proof: the proof moves from pending (conditional on its state, version and
 * expiry), its record is put once (a second is refused by its condition), and an approval writes
 * the approved hashes into the lines' markers and lets their jobs go when their artwork is the
 * approved one. The event is written in the same transaction.
 */
export async function decide(
  tenant: Tenant,
  id: number,
  input: DecisionInput,
  decider: Decider,
  facts: RequestFacts,
  owner?: number,
): Promise<Proof> {
  return retryOnVersionConflict('proof', async () => {
    const { proof, decision: existing } = await repo.requireProof(tenant, id, true);
    if (owner !== undefined && proof.customer_id !== owner) throw new NotFoundError('proof', id);
    const now = new Date();
    const state = existing ? existing.decision : proofStateAt(proof.state === 'expired' ? 'pending' : proof.state, proof.expires_at, now);
    assertDecidable(id, state);
    const at = now.toISOString();
    const record: DecisionRecord = {
      proof_id: id,
      decision: input.decision,
      decided_by: {
        kind: decider.via === 'link' ? 'link_holder' : 'customer',
        customer_id: decider.via === 'link' ? null : proof.customer_id,
        via: decider.via,
        key_prefix: decider.via === 'secret_key' ? decider.keyPrefix : null,
        name: input.name,
      },
      decided_at: at,
      ip_address: facts.ip,
      user_agent: facts.userAgent,
      comment: input.comment,
      artwork: proof.artwork,
    };
    const after: ProofRecord = { ...proof, state: input.decision, decided_at: at, updated_at: at, version: proof.version + 1 };
    const approvalParts = input.decision === 'approved' ? await approvalOf(tenant, proof) : [];
    const view = presentProof(after, record, now);
    const decisionView = storedDecision.view(record);
    await repo.writeProofChange([
      { item: proofUpdate(tenant, proof, after, { notExpiredAt: at }), onConditionFailure: proofMoved },
      { item: decisionPut(tenant, record), onConditionFailure: proofMoved },
      ...approvalParts,
      eventPut(tenant, input.decision === 'approved' ? proofApproved : proofChangesRequested, { proof: view, decision: decisionView }).item,
    ]);
    return view;
  });
}

/**
 * What an approval writes besides the proof: each covered line's marker — while it still names
 * this proof — records the proof and the hashes approved; the line's open jobs stop waiting when
 * the line's current artwork is the approved one.
 */
async function approvalOf(tenant: Tenant, proof: ProofRecord) {
  const [order, approvals] = await Promise.all([
    requireOrder(tenant, proof.order_id, true),
    repo.readLineApprovals(tenant, proof.order_id, proof.line_ids),
  ]);
  const jobs = await jobsOfLines(tenant, order, proof.line_ids);
  const approved = new Map<number, LineApprovalRecord>();
  const markers = proof.line_ids.flatMap((lineId) => {
    const before = approvals.get(lineId);
    if (!before || before.proof_id !== proof.id) return [];
    const after: LineApprovalRecord = {
      ...before,
      approved_proof_id: proof.id,
      approved_sha256: proof.artwork.filter((file) => file.line_id === lineId).map((file) => file.sha256),
      version: before.version + 1,
    };
    approved.set(lineId, after);
    return [{ item: lineApprovalPut(tenant, before, after), onConditionFailure: markerMoved }];
  });
  const hashesOf = (lineId: number) => {
    const line = order.items.find((item) => item.id === lineId);
    return line ? currentHashes(line) : [];
  };
  return [
    ...markers,
    ...jobMarks(tenant, jobs, (lineId) => awaitsApproval(approved.get(lineId) ?? approvals.get(lineId), hashesOf(lineId))),
  ];
}

/** `POST /v1/proofs/{id}/approve|request-changes` with a key or a customer token (its own proofs only). */
export function decideAs(tenant: Tenant, caller: Caller, id: number, input: DecisionInput, facts: RequestFacts): Promise<Proof> {
  if (caller.kind === 'customer')
    return decide(tenant, id, input, { via: 'customer_token', customerId: caller.customerId! }, facts, caller.customerId);
  return decide(tenant, id, input, { via: 'secret_key', keyPrefix: caller.keyPrefix }, facts);
}

/** `DELETE /v1/proofs/{id}/link`: the link stops opening the proof at once (its token is refused like an unknown one). */
export async function revokeLink(tenant: Tenant, id: number): Promise<Proof> {
  return retryOnVersionConflict('proof', async () => {
    const { proof, decision } = await repo.requireProof(tenant, id, true);
    if (proof.link_hash === null || proof.link_revoked_at !== null) return presentProof(proof, decision);
    const at = new Date().toISOString();
    const after: ProofRecord = { ...proof, link_revoked_at: at, updated_at: at, version: proof.version + 1 };
    await repo.writeProofChange([
      { item: proofUpdate(tenant, proof, after), onConditionFailure: proofMoved },
      linkRevoke(tenant, proof.link_hash, at),
    ]);
    return presentProof(after, decision);
  });
}

/**
 * Proofs and approvals (docs/proofs.md): make a proof of order lines bound to their exact artwork
 * (the SHA-256 of each file, copied from the lines), list and read them, decide on them — as the
 * shop on the customer's behalf, as the signed-in customer, or as whoever holds the proof's link —
 * and revoke a link. Each write reads what it decides on (strongly consistent), decides with the
 * pure rules (status.ts) and hands the repository one transaction: the proof, what it supersedes,
 * the lines' approval markers, the jobs' waiting marks, the link and the event. A VersionConflict
 * (a proof or marker moved since the read) reads again; of two concurrent decisions the loser
 * reads the winner's and answers 409.
 */
import type { Principal, Tenant } from '#shared/auth/principal';
import { getAccount } from '#shared/accounts/repository';
import { nextId } from '#shared/db/counters';
import { fileKeys } from '#shared/db/keys';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, MailNotSentError, NotFoundError, ValidationError, VersionConflict, type ErrorDetail } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { presignedDownload } from '#shared/files/objects';
import { readFile } from '#shared/files/repository';
import { logger } from '#shared/logger';
import { sendMail } from '#shared/mail/send';
import { readOrder, requireOrder } from '#shared/orders/repository';
import type { OrderRecord } from '#shared/orders/stored';
import { readJobs } from '#shared/production/repository';
import { isOpenJob } from '#shared/production/status';
import { jobApprovalWait, type JobRecord } from '#shared/production/stored';
import { proofApproved, proofChangesRequested, proofCreated } from './events';
import { linkTokenHash, linkUrl, newLinkToken, tenantOfLinkToken, unknownLink } from './links';
import * as repo from './repository';
import { DEFAULT_PROOF_DAYS, MAX_PROOF_DAYS, type Proof, type ProofCreate, type ProofLinkView, type ProofListQuery } from './schema';
import { assertDecidable, awaitsApproval, currentHashes, proofStateAt, type Decision } from './status';
import {
  decisionPut,
  lineApprovalPut,
  linkPut,
  linkRevoke,
  proofPut,
  proofUpdate,
  storedDecision,
  storedProof,
  type ArtworkRecord,
  type DecisionRecord,
  type LineApprovalRecord,
  type ProofRecord,
} from './stored';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Order states a proof may be made in: before its lines print (not once it is ready, shipped, completed or cancelled). */
const PROOFABLE = new Set(['pending', 'confirmed', 'in_production']);

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

// ---- Create -------------------------------------------------------------------------------------

/** The artwork of the lines named: each line's current files with their SHA-256 (422 naming what cannot be proofed). */
function artworkOf(order: OrderRecord, lineIds: readonly number[]): ArtworkRecord[] {
  const problems: ErrorDetail[] = [];
  const artwork: ArtworkRecord[] = [];
  lineIds.forEach((lineId, index) => {
    const field = `line_ids.${index}`;
    const line = order.items.find((item) => item.id === lineId);
    if (!line) return problems.push({ field, message: `Order ${order.order_number} has no line ${lineId}` });
    if (line.files.length === 0) return problems.push({ field, message: `line ${lineId} has no artwork file to proof` });
    for (const file of line.files) {
      if (file.sha256 === null) problems.push({ field, message: `line ${lineId}'s file ${file.id} has no SHA-256 yet` });
      else artwork.push({ line_id: lineId, file_id: file.id, filename: file.filename, sha256: file.sha256 });
    }
  });
  if (problems.length) throw new ValidationError('The proof is invalid', problems);
  return artwork;
}

function expiryOf(input: ProofCreate, now: Date): string {
  if (input.expires_at === undefined) return new Date(now.getTime() + DEFAULT_PROOF_DAYS * DAY_MS).toISOString();
  const at = new Date(input.expires_at);
  if (at.getTime() <= now.getTime() || at.getTime() > now.getTime() + MAX_PROOF_DAYS * DAY_MS) {
    throw new ValidationError('The proof is invalid', [
      { field: 'expires_at', message: `must be in the future, at most ${MAX_PROOF_DAYS} days ahead` },
    ]);
  }
  return at.toISOString();
}

/** The open jobs of the order's lines `lineIds` (read strongly consistent: their marks are decided on them). */
async function jobsOfLines(tenant: Tenant, order: OrderRecord, lineIds: readonly number[]): Promise<JobRecord[]> {
  const jobs = await readJobs(tenant, order.job_ids, true);
  return jobs.filter((job) => lineIds.includes(job.order_item_id) && isOpenJob(job.status));
}

/** The waiting marks of `jobs` whose `awaiting_approval` should change (per line, by `awaiting`). */
const jobMarks = (tenant: Tenant, jobs: readonly JobRecord[], awaiting: (lineId: number) => boolean) =>
  jobs
    .filter((job) => job.awaiting_approval !== awaiting(job.order_item_id))
    .flatMap((job) => jobApprovalWait(tenant, job, awaiting(job.order_item_id)));

export interface CreatedProof extends Proof {
  link: { token: string; url: string; expires_at: string };
  notified: boolean;
}

/**
 * `POST /v1/orders/{id}/proofs`: a proof of the order's lines `line_ids`, bound to their current
 * artwork; the lines' previous pending proof is superseded in the same transaction; the lines'
 * markers name the new proof (an earlier approval no longer counts when it requires approval), and
 * their jobs wait for it. Its link is answered once; with `notify`, it is emailed to the customer.
 */
export async function createProof(tenant: Tenant, orderId: number, input: ProofCreate, apiBase: string): Promise<CreatedProof> {
  const id = await nextId(tenant, 'proof');
  const token = newLinkToken(tenant);
  const hash = linkTokenHash(token);
  const created = await retryOnVersionConflict('proof', async () => {
    const order = await requireOrder(tenant, orderId, true);
    if (!PROOFABLE.has(order.status)) {
      throw new ConflictError(`Order ${order.order_number} is ${order.status}: proofs are made before its lines print`, [
        { field: 'order', message: `cannot proof an order that is ${order.status}` },
      ]);
    }
    const now = new Date();
    const artwork = artworkOf(order, input.line_ids);
    const [file, approvals, jobs] = await Promise.all([
      readFile(tenant, input.file_id, true),
      repo.readLineApprovals(tenant, order.id, input.line_ids),
      jobsOfLines(tenant, order, input.line_ids),
    ]);
    if (!file) throw new ValidationError('The proof is invalid', [{ field: 'file_id', message: `No file with id ${input.file_id}` }]);
    if (file.status !== 'ready') {
      throw new ValidationError('The proof is invalid', [
        { field: 'file_id', message: `File ${file.id} is ${file.status}: a proof needs a ready file` },
      ]);
    }
    const at = now.toISOString();
    const expiresAt = expiryOf(input, now);
    const proof: ProofRecord = {
      id,
      order_id: order.id,
      order_number: order.order_number,
      customer_id: order.customer.id,
      line_ids: [...input.line_ids],
      file_id: file.id,
      artwork,
      message: input.message ?? null,
      requires_approval: input.requires_approval,
      state: 'pending',
      expires_at: expiresAt,
      superseded_by: null,
      decided_at: null,
      link_expires_at: expiresAt,
      link_revoked_at: null,
      link_hash: hash,
      created_at: at,
      updated_at: at,
      version: 1,
    };
    // The lines' previous proofs still pending are superseded (each once, whatever lines it covered).
    const previous = await repo.readProofs(
      tenant,
      [...approvals.values()].map((approval) => approval.proof_id).filter((other) => other !== id),
    );
    const superseded = [...previous.values()]
      .filter((other) => other.state === 'pending')
      .map((other) => ({
        item: proofUpdate(tenant, other, { ...other, state: 'superseded', superseded_by: id, updated_at: at, version: other.version + 1 }),
        onConditionFailure: proofMoved,
      }));
    const markers = input.line_ids.map((lineId) => {
      const before = approvals.get(lineId);
      const after: LineApprovalRecord = {
        order_id: order.id,
        line_id: lineId,
        requires_approval: input.requires_approval,
        proof_id: id,
        approved_proof_id: null,
        approved_sha256: [],
        version: (before?.version ?? 0) + 1,
      };
      return { item: lineApprovalPut(tenant, before, after), onConditionFailure: markerMoved };
    });
    const view = presentProof(proof, undefined, now);
    await repo.writeProofChange([
      { item: proofPut(tenant, proof), onConditionFailure: proofMoved },
      ...superseded,
      ...markers,
      ...jobMarks(tenant, jobs, () => input.requires_approval),
      linkPut(tenant, hash, { proof_id: id, order_id: order.id, customer_id: order.customer.id, expires_at: expiresAt, revoked_at: null }),
      eventPut(tenant, proofCreated, { proof: view }).item,
    ]);
    return { view, order };
  });
  const link = { token, url: linkUrl(apiBase, token), expires_at: created.view.expires_at };
  const notified = input.notify ? await notify(tenant, created.order, created.view, link.url) : false;
  return { ...created.view, link, notified };
}

/** Emails the link to the order's customer; a refusal of the mail service leaves the proof made (`notified: false`). */
async function notify(tenant: Tenant, order: OrderRecord, proof: Proof, url: string): Promise<boolean> {
  const shop = (await getAccount(tenant.accountId))?.name ?? 'Your print shop';
  const lines = proof.line_ids.map((lineId) => order.items.find((line) => line.id === lineId)!);
  const text = [
    `Hello ${order.customer.name},`,
    '',
    `${shop} has prepared a proof for order ${order.order_number}:`,
    ...lines.map((line) => `- line ${line.id}: ${line.description}, quantity ${line.quantity}`),
    ...(proof.message ? ['', proof.message] : []),
    '',
    `Please review it and approve it or ask for changes here (until ${proof.expires_at}):`,
    url,
    '',
    'Production of these lines starts once the proof is approved.',
  ].join('\n');
  try {
    await sendMail({ to: order.customer.email, subject: `Proof for order ${order.order_number} — please review`, text });
    return true;
  } catch (error) {
    if (!(error instanceof MailNotSentError)) throw error;
    logger.warn('proof link not mailed', { proof_id: proof.id, reason: error.reason });
    return false;
  }
}

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
type Decider = { via: 'secret_key'; keyPrefix: string } | { via: 'customer_token'; customerId: number } | { via: 'link' };

/**
 * One decision on a proof: the proof moves from pending (conditional on its state, version and
 * expiry), its record is put once (a second is refused by its condition), and an approval writes
 * the approved hashes into the lines' markers and lets their jobs go when their artwork is the
 * approved one. The event is written in the same transaction.
 */
async function decide(
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

// ---- Links -------------------------------------------------------------------------------------

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

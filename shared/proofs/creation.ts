/**
 * A proof's creation (`POST /v1/orders/{id}/proofs`, docs/proofs.md): the lines' current artwork
 * bound to it by SHA-256 (never taken from the client), the lines' previous pending proof
 * superseded, the lines' approval markers naming it, their jobs waiting for it, its link and
 * `proof.created` — one transaction; then, with `notify`, the link mailed to the customer (apart
 * from service.ts: only this function's bundle carries the mail composer).
 */
import type { Tenant } from '#shared/auth/principal';
import { getAccount } from '#shared/accounts/repository';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, MailNotSentError, ValidationError, VersionConflict, type ErrorDetail } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { readFile } from '#shared/files/repository';
import { logger } from '#shared/logger';
import { sendMail } from '#shared/mail/send';
import { requireOrder } from '#shared/orders/repository';
import type { OrderRecord } from '#shared/orders/stored';
import { proofCreated } from './events';
import { linkTokenHash, linkUrl, newLinkToken } from './links';
import * as repo from './repository';
import { DEFAULT_PROOF_DAYS, MAX_PROOF_DAYS, type Proof, type ProofCreate } from './schema';
import { jobMarks, jobsOfLines, presentProof } from './service';
import { lineApprovalPut, linkPut, proofPut, proofUpdate, type ArtworkRecord, type LineApprovalRecord, type ProofRecord } from './stored';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Order states a proof may be made in: before its lines print (not once it is ready, shipped, completed or cancelled). */
const PROOFABLE = new Set(['pending', 'confirmed', 'in_production']);

const proofMoved = () => new VersionConflict('proof');
const markerMoved = () => new VersionConflict('proof approval');

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

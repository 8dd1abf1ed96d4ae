/**
 * The proof state machine and the production gate — pure (docs/proofs.md shows the same table and
 * a unit test checks every pair). The repository enforces a move in the database with conditions
 * on the state and version read (and on `expires_at` for a decision), so of two concurrent
 * decisions exactly one is written; this module says which moves exist and what the gate demands.
 *
 *   pending ──approve──────────▶ approved
 *   pending ──request changes──▶ changes_requested
 *   pending ──a newer proof────▶ superseded
 *   pending ──expires_at passed▶ expired (read as such; nothing is written)
 */
import { DomainError } from '#shared/errors';
import type { OrderLineRecord } from '#shared/orders/stored';

/** The states a proof is stored in; `expired` is a pending one whose `expires_at` has passed (computed when read). */
export const STORED_PROOF_STATES = ['pending', 'approved', 'changes_requested', 'superseded'] as const;
export const PROOF_STATES = [...STORED_PROOF_STATES, 'expired'] as const;

export type StoredProofState = (typeof STORED_PROOF_STATES)[number];
export type ProofState = (typeof PROOF_STATES)[number];

/** What a customer (or the shop on a customer's behalf) decides. */
export const DECISIONS = ['approved', 'changes_requested'] as const;
export type Decision = (typeof DECISIONS)[number];

/** The moves of the table: only a pending proof moves, once. */
const MOVES: Readonly<Record<ProofState, readonly ProofState[]>> = {
  pending: ['approved', 'changes_requested', 'superseded', 'expired'],
  approved: [],
  changes_requested: [],
  superseded: [],
  expired: [],
};

export const canMoveProof = (from: ProofState, to: ProofState): boolean => MOVES[from].includes(to);

export const nextProofStates = (from: ProofState): readonly ProofState[] => MOVES[from];

/** The state as shown at `now`: a pending proof past `expires_at` is expired. */
export const proofStateAt = (state: StoredProofState, expiresAt: string, now: Date): ProofState =>
  state === 'pending' && expiresAt <= now.toISOString() ? 'expired' : state;

/**
 * 409 unless a decision may be made on a proof in `state` (as shown now): one decision per proof,
 * none on a superseded or expired one. The message names the state.
 */
export function assertDecidable(proofId: number, state: ProofState): void {
  if (state === 'pending') return;
  const why: Record<Exclude<ProofState, 'pending'>, string> = {
    approved: 'it is already approved; a proof takes one decision',
    changes_requested: 'changes were already requested; a proof takes one decision',
    superseded: 'a newer proof replaced it; decide on that one',
    expired: 'it has expired; the shop sends a new proof',
  };
  throw new DomainError('conflict', `Proof ${proofId} cannot be decided: ${why[state]}`, [{ field: 'state', message: state }]);
}

/** What a line's approval marker holds, as far as the gate reads it. */
export interface LineApproval {
  line_id: number;
  /** Whether the line's latest proof asked for approval: without it the line is not gated. */
  requires_approval: boolean;
  /** The line's latest proof (the one to decide on). */
  proof_id: number;
  /** The proof whose approval covers the line, and the SHA-256 of the artwork it approved (the line's files, in order). */
  approved_proof_id: number | null;
  approved_sha256: string[];
}

/** The gate's verdict for one line: printable, or which proof is needed and why. */
export type GateVerdict =
  { open: true; gated: boolean } | { open: false; reason: 'awaiting_approval' | 'artwork_changed'; proofId: number; message: string };

/** The SHA-256 of a line's current files, in the line's order (null where a file has none yet). */
export const currentHashes = (line: Pick<OrderLineRecord, 'files'>): (string | null)[] => line.files.map((file) => file.sha256);

export const sameHashes = (a: readonly (string | null)[], b: readonly (string | null)[]): boolean =>
  a.length === b.length && a.every((hash, index) => hash !== null && hash === b[index]);

/**
 * The production gate: a line whose latest proof requires approval prints only when an approved
 * proof covers it and the line's current artwork (its files' SHA-256, in order) is exactly what
 * was approved. A line without a proof, or whose latest proof asks for no approval, is not gated.
 */
export function gateOf(approval: LineApproval | undefined, currentSha256: readonly (string | null)[]): GateVerdict {
  if (!approval || !approval.requires_approval) return { open: true, gated: false };
  if (approval.approved_proof_id === null) {
    return {
      open: false,
      reason: 'awaiting_approval',
      proofId: approval.proof_id,
      message: `line ${approval.line_id} needs proof ${approval.proof_id} approved before printing`,
    };
  }
  if (!sameHashes(approval.approved_sha256, currentSha256)) {
    return {
      open: false,
      reason: 'artwork_changed',
      proofId: approval.proof_id,
      message: `line ${approval.line_id}'s artwork changed after proof ${approval.approved_proof_id} was approved: a new proof must be approved`,
    };
  }
  return { open: true, gated: true };
}

/**
 * Whether a job of the line waits for an approval (shown on the job, `GET /v1/production/jobs?awaiting_approval=true`):
 * the gate closed, said without its messages (an order's confirmation carries this, at its bundle budget).
 */
export const awaitsApproval = (approval: LineApproval | undefined, currentSha256: readonly (string | null)[]): boolean =>
  approval !== undefined &&
  approval.requires_approval &&
  (approval.approved_proof_id === null || !sameHashes(approval.approved_sha256, currentSha256));

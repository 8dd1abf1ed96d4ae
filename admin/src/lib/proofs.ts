/**
 * Proofs as the panel shows them (docs/proofs.md): a proof's state as a badge, its decision record
 * in words, the approved artwork's hashes shortened, the creation form's checks, and the production
 * board's view of the jobs that wait for an approval. Pure: unit-tested (test/unit/admin-proofs.test.ts).
 */
import type { Job, JobStatus, OrderLine, Page, Proof, ProofDecision, ProofInput, ProofState } from '../api/types';
import type { StatusView } from './delivery-status';

const proofViews: Record<ProofState, StatusView> = {
  pending: {
    key: 'pending',
    label: 'Awaiting decision',
    symbol: '…',
    tone: 'info',
    description: 'Sent; the customer has not decided yet.',
  },
  approved: {
    key: 'approved',
    label: 'Approved',
    symbol: '✓',
    tone: 'success',
    description: 'Approved: the lines may print this artwork.',
  },
  changes_requested: {
    key: 'changes_requested',
    label: 'Changes requested',
    symbol: '✎',
    tone: 'danger',
    description: 'The customer asked for changes: send a new proof.',
  },
  superseded: {
    key: 'superseded',
    label: 'Superseded',
    symbol: '↷',
    tone: 'neutral',
    description: 'A newer proof of its lines replaced it.',
  },
  expired: { key: 'expired', label: 'Expired', symbol: '○', tone: 'neutral', description: 'Expired undecided: send a new proof.' },
};

export const proofStateView = (state: ProofState): StatusView => proofViews[state];

/** A SHA-256 shortened for the screen: its first 12 hex digits and an ellipsis (the whole one in the title). */
export const shortHash = (sha256: string | null): string =>
  sha256 === null ? '—' : sha256.length > 12 ? `${sha256.slice(0, 12)}…` : sha256;

/** Who decided, in words: the customer (by the shop's key on their behalf, or signed in) or the link's holder, with the name given. */
export function decidedByText(decision: ProofDecision): string {
  const by = decision.decided_by;
  const who =
    by.via === 'secret_key'
      ? `the shop on the customer's behalf${by.key_prefix ? ` (${by.key_prefix}…)` : ''}`
      : by.via === 'customer_token'
        ? 'the customer, signed in'
        : 'the holder of the proof link';
  return by.name ? `${by.name} — ${who}` : who.charAt(0).toUpperCase() + who.slice(1);
}

/** Whether the proof still has a link the shop can revoke (made, not revoked, the proof not yet closed by time). */
export const hasLiveLink = (proof: Proof): boolean => proof.link_expires_at !== null && proof.link_revoked_at === null;

/** The lines a proof can be made for: those with artwork whose SHA-256 is known (the API refuses the others, 422). */
export const proofableLines = (lines: readonly OrderLine[]): OrderLine[] =>
  lines.filter((line) => line.files.length > 0 && line.files.every((file) => file.sha256 !== null));

export interface ProofForm {
  lineIds: number[];
  fileId: string;
  message: string;
  notify: boolean;
}

/** The form's problems by field (as the API would name them), or the request to send. */
export function proofRequest(form: ProofForm): { problems: Record<string, string> } | { input: ProofInput } {
  const problems: Record<string, string> = {};
  if (form.lineIds.length === 0) problems.line_ids = 'Choose at least one line.';
  const fileId = Number(form.fileId.trim());
  if (!form.fileId.trim() || !Number.isInteger(fileId) || fileId < 1)
    problems.file_id = 'Give the id of the proof document (a ready file).';
  if (form.message.length > 2000) problems.message = 'At most 2,000 characters.';
  if (Object.keys(problems).length > 0) return { problems };
  const message = form.message.trim();
  return {
    input: { line_ids: [...form.lineIds].sort((a, b) => a - b), file_id: fileId, ...(message ? { message } : {}), notify: form.notify },
  };
}

/** The badge of a job that waits for a proof's approval (it cannot start printing). */
export const AWAITING_APPROVAL_VIEW: StatusView = {
  key: 'awaiting_approval',
  label: 'Awaiting approval',
  symbol: '!',
  tone: 'warning',
  description: 'Waits for a proof of its line to be approved: it cannot start printing.',
};

/**
 * The board's columns when it shows only the jobs awaiting approval: the API lists them alone (it
 * takes no status or machine with `awaiting_approval`), so the one list is grouped by status here,
 * and a machine filter applies to it here too.
 */
export function awaitingColumns(jobs: readonly Job[], statuses: readonly JobStatus[], machineId?: number): Map<JobStatus, Page<Job>> {
  const shown = jobs.filter((job) => job.awaiting_approval && (machineId === undefined || job.machine_id === machineId));
  return new Map<JobStatus, Page<Job>>(
    statuses.map((status) => {
      const items = shown.filter((job) => job.status === status);
      return [status, { items, pagination: { page: 1, per_page: items.length, has_more: false, total: items.length, total_pages: 1 } }];
    }),
  );
}

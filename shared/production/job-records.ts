/**
 * How a job record changes — created from an order line, moved to a status, changed by hand.
 * Pure: the services read, call these, and write the result in one transaction.
 */
import type { OrderLineRecord, OrderRecord } from '#shared/orders/stored';
import { estimateMinutes, type MachineSpeed } from './estimates';
import { heldFromAfter, type JobStatus } from './status';
import { MAX_JOB_HISTORY, type JobHistoryEntry, type JobRecord } from './stored';

/** Appends a move to the history, keeping the last MAX_JOB_HISTORY. */
export const withHistory = (history: readonly JobHistoryEntry[], entry: JobHistoryEntry): JobHistoryEntry[] =>
  [...history, entry].slice(-MAX_JOB_HISTORY);

/**
 * The job of one order line: queued, unassigned, normal priority, due when the order is;
 * `awaitingApproval` when a proof of the line must be approved before it prints (shared/proofs).
 */
export function jobOfLine(
  id: number,
  order: OrderRecord,
  line: OrderLineRecord,
  now: string,
  by: string,
  awaitingApproval = false,
): JobRecord {
  return {
    id,
    order_id: order.id,
    order_item_id: line.id,
    order_number: order.order_number,
    product_id: line.product_id,
    description: line.description,
    quantity: line.quantity,
    file_ids: line.file_ids,
    status: 'queued',
    held_from: null,
    machine_id: null,
    priority: 'normal',
    due_date: order.due_date,
    estimated_minutes: null,
    started_at: null,
    completed_at: null,
    reprints: 0,
    notes: null,
    awaiting_approval: awaitingApproval,
    history: [{ status: 'queued', at: now, note: `Order ${order.order_number} confirmed`, by }],
    created_at: now,
    updated_at: now,
    version: 1,
  };
}

export interface Move {
  to: JobStatus;
  /** The machine after the move (given with it, or the one assigned). */
  machineId: number | null;
  /** That machine's speed, for the estimate (when the machine changes). */
  machine?: MachineSpeed;
  note: string | null;
  by: string;
  now: string;
}

/**
 * The job after a move: status, the state a hold returns to, machine and estimate, the times
 * (`started_at` when it first prints, again after a reprint; `completed_at`), the reprint count
 * and the history entry.
 */
export function movedJob(job: JobRecord, move: Move): JobRecord {
  const reprint = job.status === 'failed' && move.to === 'queued';
  const machineChanged = move.machineId !== job.machine_id;
  return {
    ...job,
    status: move.to,
    held_from: heldFromAfter(job.status, move.to),
    machine_id: move.machineId,
    estimated_minutes: machineChanged && move.machine ? estimateMinutes(job.quantity, move.machine) : job.estimated_minutes,
    started_at: reprint ? null : move.to === 'printing' && job.started_at === null ? move.now : job.started_at,
    completed_at: move.to === 'completed' ? move.now : job.completed_at,
    reprints: reprint ? job.reprints + 1 : job.reprints,
    // A closed job waits for nothing: it leaves the list of jobs awaiting approval.
    awaiting_approval: job.awaiting_approval && move.to !== 'completed' && move.to !== 'cancelled',
    history: withHistory(job.history, { status: move.to, at: move.now, note: move.note, by: move.by }),
    updated_at: move.now,
    version: job.version + 1,
  };
}

/** The job of a cancelled order: cancelled, with why in its history. */
export const cancelledWithOrder = (job: JobRecord, by: string, now: string): JobRecord =>
  movedJob(job, { to: 'cancelled', machineId: job.machine_id, note: `Order ${job.order_number} was cancelled`, by, now });

/** When the job started running in its current state (the latest history entry is that move). */
export const runningSince = (job: JobRecord): string => job.history.at(-1)?.at ?? job.updated_at;

/**
 * The job prints its line's replaced artwork (docs/orders.md#replacing-a-lines-artwork): its files,
 * whether it now waits for a proof's approval, and a history entry in its own status saying so.
 */
export const withArtwork = (job: JobRecord, fileIds: readonly number[], awaiting: boolean, now: string, by: string): JobRecord => ({
  ...job,
  file_ids: [...fileIds],
  awaiting_approval: awaiting,
  history: withHistory(job.history, { status: job.status, at: now, note: 'Artwork replaced', by }),
  updated_at: now,
  version: job.version + 1,
});

/**
 * The production job status machine — the one copy of the transition table (docs/production.md
 * shows the same table and a unit test checks every pair) — and what a move does to machines.
 * Pure: the repository enforces a move in the database with conditions on the job's status and
 * version and on the machine's status, so of concurrent moves exactly one wins.
 */
import { DomainError } from '#shared/errors';

export const JOB_STATUSES = [
  'queued',
  'scheduled',
  'printing',
  'finishing',
  'quality_check',
  'on_hold',
  'completed',
  'failed',
  'cancelled',
] as const;

export type JobStatus = (typeof JOB_STATUSES)[number];

export const JOB_PRIORITIES = ['low', 'normal', 'high', 'rush'] as const;

export type JobPriority = (typeof JOB_PRIORITIES)[number];

/** Queue order: rush first, low last (the first part of the job lists' sort key). */
export const priorityRank = (priority: JobPriority): number => ({ rush: 0, high: 1, normal: 2, low: 3 })[priority];

/** The ranks in queue order. */
export const PRIORITY_RANKS = [0, 1, 2, 3] as const;

/** States a job can be put on hold from, and returns to. */
const HOLDABLE = ['printing', 'finishing', 'quality_check'] as const satisfies readonly JobStatus[];

/**
 * from → the states it may move to; `on_hold` returns only to the state it left (`held_from`).
 * Every state that is not final may also fail or be cancelled; a failed job may be queued again (a reprint).
 */
const FORWARD: Readonly<Record<JobStatus, readonly JobStatus[]>> = {
  queued: ['scheduled'],
  scheduled: ['printing'],
  printing: ['finishing', 'on_hold'],
  finishing: ['quality_check', 'on_hold'],
  quality_check: ['completed', 'on_hold'],
  on_hold: [], // back to held_from, added below
  completed: [],
  failed: ['queued'],
  cancelled: [],
};

/** Completed and cancelled jobs are closed: nothing moves them again. */
export const isClosedJob = (status: JobStatus): boolean => status === 'completed' || status === 'cancelled';

/** A job that still has work ahead (failed included: it waits for a reprint or a cancel). */
export const isOpenJob = (status: JobStatus): boolean => !isClosedJob(status);

/** The job occupies its machine (the machine is `running`) while printing or finishing. */
export const isRunning = (status: JobStatus): boolean => status === 'printing' || status === 'finishing';

/** States that need a machine: given with the move or already assigned. */
export const needsMachine = (status: JobStatus): boolean => status === 'scheduled' || status === 'printing';

export function nextJobStatuses(from: JobStatus, heldFrom: JobStatus | null = null): JobStatus[] {
  if (isClosedJob(from)) return [];
  const forward = from === 'on_hold' ? (heldFrom ? [heldFrom] : []) : [...FORWARD[from]];
  const exits: JobStatus[] = from === 'failed' ? ['cancelled'] : ['failed', 'cancelled'];
  return [...forward, ...exits];
}

export const canMoveJob = (from: JobStatus, to: JobStatus, heldFrom: JobStatus | null = null): boolean =>
  nextJobStatuses(from, heldFrom).includes(to);

/** 409 `invalid_transition` naming the allowed next states (in the message and in `details`). */
export function assertJobTransition(from: JobStatus, to: JobStatus, heldFrom: JobStatus | null = null): void {
  if (canMoveJob(from, to, heldFrom)) return;
  const allowed = nextJobStatuses(from, heldFrom);
  const reason = from === to ? `The job is already ${from}` : `A job cannot move from ${from} to ${to}`;
  const next = allowed.length ? `allowed next states: ${allowed.join(', ')}` : `${from} is final; no further state is allowed`;
  throw new DomainError('invalid_transition', `${reason}; ${next}`, [{ field: 'status', message: next }]);
}

/** The state a job put on hold returns to (null when the move is not to on_hold). */
export const heldFromAfter = (from: JobStatus, to: JobStatus): JobStatus | null =>
  to === 'on_hold' && (HOLDABLE as readonly JobStatus[]).includes(from) ? from : null;

/**
 * What a move does to machines. A job runs on at most one machine: entering printing or finishing
 * claims the job's machine (which must be idle), leaving them releases it; a job that moves from
 * printing on a press to finishing on a cutter releases the one and claims the other.
 */
export interface MachineEffects {
  /** The machine the job leaves (becomes idle). */
  release?: number;
  /** The machine the job starts on (must be idle; becomes running with this job). */
  claim?: number;
}

export function machineEffects(from: JobStatus, to: JobStatus, machineBefore: number | null, machineAfter: number | null): MachineEffects {
  const runningBefore = isRunning(from) ? machineBefore : null;
  const runningAfter = isRunning(to) ? machineAfter : null;
  if (runningBefore === runningAfter) return {};
  return {
    ...(runningBefore !== null ? { release: runningBefore } : {}),
    ...(runningAfter !== null ? { claim: runningAfter } : {}),
  };
}

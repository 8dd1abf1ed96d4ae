/**
 * How production jobs and machines are stored (see docs/data-model.md).
 *
 * A job item's two index slots give the lists a status change moves — "jobs of one status"
 * (gsi1) and "jobs of one machine and status" (gsi2) — and a list entry in the job's partition
 * gives "all jobs" (gsi1) and "all jobs of one machine" (gsi2), which only a change of machine,
 * priority or due date moves. All four sort in queue order (jobQueueSortKey). So a status move,
 * the most frequent write, touches one job item; cancelling an order's 25 jobs fits one transaction.
 *
 * A machine item is listed by type then creation (gsi1) and per status (gsi2); it carries
 * `current_job_id` while running and `open_jobs` (open jobs assigned to it, which blocks deletion).
 */
import type { Tenant } from '#shared/auth/principal';
import { jobQueueSortKey, machineSortKey, productionKeys } from '#shared/db/keys';
import { adjustTotal } from '#shared/db/totals';
import { tableName, type TransactItem } from '#shared/db/table';
import { versionedUpdate } from '#shared/db/update-expression';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import { JOB_PRIORITIES, JOB_STATUSES, priorityRank, type JobStatus } from './status';

export const MACHINE_TYPES = ['digital_press', 'offset_press', 'large_format', 'cutter', 'folder', 'binder', 'laminator', 'other'] as const;
export const MACHINE_STATUSES = ['idle', 'running', 'maintenance', 'offline'] as const;
export type MachineStatus = (typeof MACHINE_STATUSES)[number];

/** A job keeps its most recent moves; older ones drop off (a job that is held and resumed for months stays small). */
export const MAX_JOB_HISTORY = 50;

const historyEntry = /* @__PURE__ */ (() =>
  c.object(
    {
      status: field(c.enumOf(JOB_STATUSES)),
      at: field(c.timestamp),
      note: field(c.nullable(c.string)),
      by: field(c.string).describe('Who moved it: the API key prefix (or the customer, for customer logins)', 'sk_test_4f2a'),
    },
    { id: 'ProductionJobHistoryEntry' },
  ))();

export const storedJob = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    order_id: field(c.int).fixed(),
    order_item_id: field(c.int).fixed().describe('The order line this job produces'),
    order_number: field(c.string).fixed().describe('The order number, for job tickets', 'ORD-2026-000042'),
    product_id: field(c.nullable(c.int)).fixed().describe("The line's product; null for a legacy product's run"),
    description: field(c.string).fixed().describe("The line's description", 'Flyer A5'),
    quantity: field(c.int).fixed(),
    file_ids: field(c.list(c.int)).describe(
      "The line's files (artwork): GET /v1/files/{id}, or the order's GET /v1/orders/{id}/files; replaced with the line's artwork until the job starts printing",
    ),
    status: field(c.enumOf(JOB_STATUSES)),
    held_from: field(c.nullable(c.enumOf(JOB_STATUSES))).describe('While on_hold: the state the job returns to'),
    machine_id: field(c.nullable(c.int)),
    priority: field(c.enumOf(JOB_PRIORITIES)),
    due_date: field(c.nullable(c.string)).describe("YYYY-MM-DD; the order's due date unless changed", '2026-12-01'),
    estimated_minutes: field(c.nullable(c.int)).describe(
      'Setup + quantity ÷ speed of its machine, when the job was assigned; null without a machine',
    ),
    started_at: field(c.nullable(c.timestamp)).describe('When it (or its latest reprint) first entered printing'),
    completed_at: field(c.nullable(c.timestamp)),
    reprints: field(c.int).describe('How often it failed and was queued again'),
    notes: field(c.nullable(c.string)),
    awaiting_approval: field(c.boolean).describe('Waits for a proof of its line to be approved: it cannot start printing'),
    history: field(c.list(historyEntry)).describe(`Every move, oldest first (the last ${MAX_JOB_HISTORY})`),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().internal(),
  }))();

export const storedMachine = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    name: field(c.string),
    type: field(c.enumOf(MACHINE_TYPES)),
    status: field(c.enumOf(MACHINE_STATUSES)).describe(
      'running while a job on it is printing or finishing; maintenance and offline are set by hand',
    ),
    current_job_id: field(c.nullable(c.int)).describe('The job running on it'),
    capabilities: field(
      c.object(
        {
          max_sheet_width_mm: field(c.nullable(c.int)),
          max_sheet_height_mm: field(c.nullable(c.int)),
          colors: field(c.nullable(c.int)).describe('Colour units (4 = CMYK)'),
          duplex: field(c.nullable(c.boolean)),
          other: field(c.stringMap).describe('Further capabilities, name → value', { coating: 'uv' }),
        },
        { id: 'MachineCapabilities' },
      ),
    ),
    speed_per_hour: field(c.int).describe('Units (sheets, items) per hour, for estimates', 3000),
    setup_minutes: field(c.int).describe('Make-ready before each job, for estimates', 15),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().internal(),
    /** Open jobs assigned to the machine (kept by the jobs' transactions); > 0 blocks deletion. */
    open_jobs: field(c.int).counter(),
  }))();

export type JobRecord = RecordOf<typeof storedJob.shape>;
export type JobHistoryEntry = JobRecord['history'][number];
export type MachineRecord = RecordOf<typeof storedMachine.shape>;

// Functions, not `storedJob.read`: a property read at the top level would keep the entity in every bundle importing this module.
export const jobFromItem = (item: Record<string, unknown>): JobRecord => storedJob.read(item);
export const machineFromItem = (item: Record<string, unknown>): MachineRecord => storedMachine.read(item);

export const JOBS = 'jobs';
export const MACHINES = 'machines';

/** The counter of the jobs of one status. */
export const jobStatusCounter = (status: JobStatus): string => `${JOBS}:${status}`;

/** The job's sort key in every job list: its place in the queue order (a list cursor starts after it). */
export const queueKeyOf = (job: JobRecord): string => jobQueueSortKey(priorityRank(job.priority), job.due_date, job.created_at, job.id);

/** The job item's index attributes: its status list and, with a machine, its machine's status list. */
function jobIndexes(tenant: Tenant, job: JobRecord): Record<string, string | null> {
  const sortKey = queueKeyOf(job);
  return {
    gsi1pk: productionKeys.jobsByStatus(tenant, job.status),
    gsi1sk: sortKey,
    gsi2pk: job.machine_id === null ? null : productionKeys.machineJobsByStatus(tenant, job.machine_id, job.status),
    gsi2sk: job.machine_id === null ? null : sortKey,
  };
}

const withoutNulls = (attributes: Record<string, unknown>) => Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== null));

export function jobPut(tenant: Tenant, job: JobRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...productionKeys.job(tenant, job.id),
        entity: 'JOB',
        ...storedJob.attributes(job, 'put'),
        ...withoutNulls(jobIndexes(tenant, job)),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The list entry, written whole: at creation, and when the machine, priority or due date change. */
export function jobListEntryPut(tenant: Tenant, job: JobRecord): TransactItem {
  const sortKey = queueKeyOf(job);
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...productionKeys.jobListEntry(tenant, job.id),
        entity: 'JOB_LIST_ENTRY',
        job_id: job.id,
        gsi1pk: productionKeys.jobsCollection(tenant),
        gsi1sk: sortKey,
        ...(job.machine_id === null ? {} : { gsi2pk: productionKeys.machineJobs(tenant, job.machine_id), gsi2sk: sortKey }),
      },
    },
  };
}

/**
 * A job starts or stops waiting for a proof's approval (shared/proofs, in the proof's own
 * transaction): its `awaiting_approval` and its entry in the list of waiting jobs. The version is
 * raised, so a change by hand read before it reads again rather than writing the old value back.
 */
export function jobApprovalWait(tenant: Tenant, job: JobRecord, awaiting: boolean): TransactItem[] {
  const mark: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: productionKeys.job(tenant, job.id),
      UpdateExpression: 'SET awaiting_approval = :awaiting, #version = #version + :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':awaiting': awaiting, ':one': 1 },
    },
  };
  return [mark, awaiting ? jobAwaitingEntryPut(tenant, job) : jobAwaitingEntryDelete(tenant, job.id)];
}

/** The job leaves the list of jobs awaiting approval (approved, or closed while it waited). */
export const jobAwaitingEntryDelete = (tenant: Tenant, jobId: number): TransactItem => ({
  Delete: { TableName: tableName(), Key: productionKeys.jobAwaitingEntry(tenant, jobId) },
});

/** The awaiting entry's removal when a change of the job ends its wait (a job closed while it waited). */
export const awaitingEntryMoves = (tenant: Tenant, before: JobRecord, after: JobRecord): TransactItem[] =>
  before.awaiting_approval && !after.awaiting_approval ? [jobAwaitingEntryDelete(tenant, before.id)] : [];

/** The job's entry in the list of jobs awaiting approval (gsi1, in queue order as of when it began waiting). */
export const jobAwaitingEntryPut = (tenant: Tenant, job: JobRecord): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...productionKeys.jobAwaitingEntry(tenant, job.id),
      entity: 'JOB_AWAITING_ENTRY',
      job_id: job.id,
      gsi1pk: productionKeys.jobsAwaitingApproval(tenant),
      gsi1sk: queueKeyOf(job),
    },
  },
});

/** Whether a change moves the job in the lists its list entry serves. */
export const listEntryMoves = (before: JobRecord, after: JobRecord): boolean =>
  before.machine_id !== after.machine_id || queueKeyOf(before) !== queueKeyOf(after);

/** The update of the job item, conditional on the status and version that were read. */
export const jobUpdate = (tenant: Tenant, before: JobRecord, after: JobRecord): TransactItem =>
  versionedUpdate(
    productionKeys.job(tenant, before.id),
    { ...storedJob.attributes(after, 'update'), ...jobIndexes(tenant, after) },
    before.version,
    {
      condition: '#status = :from',
      names: { '#status': 'status' },
      values: { ':from': before.status },
    },
  );

/**
 * A job's artwork replaced with its line's (the order's change of kind "artwork"): its update,
 * conditional on the status and version read — so a concurrent move and the replacement cannot
 * both be written — and its entry in the list of waiting jobs follows `awaiting_approval`.
 */
export function jobArtworkUpdate(tenant: Tenant, before: JobRecord, after: JobRecord): TransactItem[] {
  const entry =
    after.awaiting_approval && !before.awaiting_approval ? [jobAwaitingEntryPut(tenant, after)] : awaitingEntryMoves(tenant, before, after);
  return [jobUpdate(tenant, before, after), ...entry];
}

/** Moves of the tenant's job counters: `jobs:<status>` per status (and `jobs` for new jobs), summed per counter. */
export function jobCounterMoves(tenant: Tenant, moves: Iterable<[from: JobStatus | null, to: JobStatus]>): TransactItem[] {
  const deltas = new Map<string, number>();
  const move = (counter: string, delta: number) => deltas.set(counter, (deltas.get(counter) ?? 0) + delta);
  for (const [from, to] of moves) {
    if (from === null) move(JOBS, 1);
    else move(jobStatusCounter(from), -1);
    move(jobStatusCounter(to), 1);
  }
  return [...deltas].filter(([, delta]) => delta !== 0).map(([counter, delta]) => adjustTotal(tenant, counter, delta));
}

// ---- Machines ---------------------------------------------------------------------------------

const machineIndexes = (tenant: Tenant, machine: MachineRecord) => {
  const sortKey = machineSortKey(machine.type, machine.created_at, machine.id);
  return {
    gsi1pk: productionKeys.machinesCollection(tenant),
    gsi1sk: sortKey,
    gsi2pk: productionKeys.machinesByStatus(tenant, machine.status),
    gsi2sk: sortKey,
  };
};

export function machinePut(tenant: Tenant, machine: MachineRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...productionKeys.machine(tenant, machine.id),
        entity: 'MACHINE',
        ...storedMachine.attributes(machine, 'put'),
        ...machineIndexes(tenant, machine),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * A change by hand (name, speed, status…), conditional on the version that was read. Jobs that
 * claim or release the machine raise its version too, so a hand change never overwrites their
 * status or current job.
 */
export const machineUpdate = (tenant: Tenant, before: MachineRecord, after: MachineRecord): TransactItem =>
  versionedUpdate(
    productionKeys.machine(tenant, before.id),
    { ...storedMachine.attributes(after, 'update'), ...machineIndexes(tenant, after) },
    before.version,
  );

/** What jobs do to one machine in one transaction (merged: an item appears once per transaction). */
export interface MachineChange {
  /** The job that starts running on it: only while it is idle. */
  claim?: number;
  /** The job that stops running on it: only while that job is its current one. */
  release?: number;
  /** Moves its count of open jobs (assignment, reassignment, a job closing). */
  openJobs?: number;
}

/** The machine's update for `change`; conditional on the machine existing, and for a claim on it being idle. */
export function machineChange(tenant: Tenant, machineId: number, change: MachineChange, now: string): TransactItem {
  const sets: string[] = [];
  const removes: string[] = [];
  const adds: string[] = [];
  const conditions = ['attribute_exists(pk)'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (change.claim !== undefined || change.release !== undefined) {
    const status: MachineStatus = change.claim !== undefined ? 'running' : 'idle';
    names['#status'] = 'status';
    names['#version'] = 'version';
    Object.assign(values, { ':status': status, ':partition': productionKeys.machinesByStatus(tenant, status), ':now': now, ':one': 1 });
    sets.push('#status = :status', 'gsi2pk = :partition', 'updated_at = :now', '#version = #version + :one');
    if (change.claim !== undefined) {
      sets.push('current_job_id = :claim');
      values[':claim'] = change.claim;
      values[':idle'] = 'idle';
      conditions.push('#status = :idle');
    } else {
      removes.push('current_job_id');
      values[':release'] = change.release;
      conditions.push('current_job_id = :release');
    }
  }
  if (change.openJobs) {
    adds.push('open_jobs :openJobs');
    values[':openJobs'] = change.openJobs;
  }
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    Update: {
      TableName: tableName(),
      Key: productionKeys.machine(tenant, machineId),
      UpdateExpression: expression,
      ConditionExpression: conditions.join(' AND '),
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

/** Merges machine changes per machine (the job moves of one transaction). */
export function mergeMachineChanges(changes: Iterable<[machineId: number, change: MachineChange]>): Map<number, MachineChange> {
  const merged = new Map<number, MachineChange>();
  for (const [machineId, change] of changes) {
    const current = merged.get(machineId) ?? {};
    merged.set(machineId, {
      ...current,
      ...(change.claim !== undefined ? { claim: change.claim } : {}),
      ...(change.release !== undefined ? { release: change.release } : {}),
      ...(change.openJobs ? { openJobs: (current.openJobs ?? 0) + change.openJobs } : {}),
    });
  }
  return merged;
}

export const machineTotal = (tenant: Tenant, delta: number): TransactItem => adjustTotal(tenant, MACHINES, delta);

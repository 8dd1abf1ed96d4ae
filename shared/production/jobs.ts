/**
 * Production jobs: read, list, change by hand, move along the status machine. A move reads the
 * job and the machines it leaves or starts on, decides with the pure rules (status.ts,
 * job-records.ts) and builds its parts — conditional on the job's status and version and on a
 * machine being idle for a start; the process layer (shared/fulfilment/job-moves.ts) adds what the
 * move does to the job's order and writes it all in one transaction. When any of those changed
 * since the read, the move reads again and decides again: of two moves racing, the loser meets
 * the winner's result (409).
 */
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import type { TransactItem, TransactionPart } from '#shared/db/table';
import { ConflictError, ValidationError, VersionConflict } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { eventPut } from '#shared/events/outbox';
import { jobCompleted } from './events';
import { estimateMinutes } from './estimates';
import { movedJob } from './job-records';
import * as repo from './repository';
import type { Job, JobListQuery, JobStatusChange, JobUpdate } from './schema';
import { assertJobTransition, isClosedJob, isOpenJob, isRunning, machineEffects, needsMachine, priorityRank } from './status';
import {
  awaitingEntryMoves,
  jobCounterMoves,
  jobListEntryPut,
  jobUpdate,
  listEntryMoves,
  machineChange,
  mergeMachineChanges,
  queueKeyOf,
  storedJob,
  type JobRecord,
  type MachineChange,
  type MachineRecord,
} from './stored';

const present: typeof storedJob.view = (value) => storedJob.view(value);

type Part = TransactItem | TransactionPart;

const jobMoved = () => new VersionConflict('production job');
const machineMoved = () => new VersionConflict('machine');

export async function getJob(tenant: Tenant, id: number): Promise<Job> {
  return present(await repo.requireJob(tenant, id));
}

/** A page of jobs in queue order: exact totals from counters, or counted up to a cap (`capped`). */
export async function listJobs(
  tenant: Tenant,
  query: JobListQuery,
): Promise<{ items: Job[]; total: number; capped: boolean; hasMore: boolean }> {
  const filter = { status: query.status, machineId: query.machine_id, dueBefore: query.due_before };
  const page: repo.JobPageRequest = { page: query.page, perPage: query.per_page };
  if (query.order_id !== undefined) {
    // An order's jobs are the ids the order holds (shared/fulfilment/job-moves.ts reads them): none here.
    return listJobsOfOrder(tenant, [], query);
  }
  const after = await cursorOf(tenant, query.starting_after);
  const result = query.awaiting_approval
    ? await repo.listAwaitingJobs(tenant, { ...page, after })
    : await repo.listJobs(tenant, filter, { ...page, after });
  return { ...result, items: result.items.map(present) };
}

/** The jobs of an order (`jobIds`: the ids the order holds; none for an unknown order), filtered and paged as `query` says. */
export async function listJobsOfOrder(
  tenant: Tenant,
  jobIds: readonly number[],
  query: JobListQuery,
): Promise<{ items: Job[]; total: number; capped: boolean; hasMore: boolean }> {
  const filter = {
    status: query.status,
    machineId: query.machine_id,
    dueBefore: query.due_before,
    awaitingApproval: query.awaiting_approval === 'true',
  };
  const after = await cursorOf(tenant, query.starting_after);
  return listOrderJobs(tenant, jobIds, filter, { page: query.page, perPage: query.per_page, after });
}

/** The cursor's job: the one `starting_after` names (422 when the tenant has none). */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<JobRecord | undefined> {
  return cursorEntry(id, 'production job', (id) => repo.readJob(tenant, id));
}

/**
 * An order's jobs (`jobIds`, from the order): at most one per line (25), read by id and filtered
 * and sorted here — a bounded set, not a page of a larger list; a cursor keeps the jobs after its
 * place in the queue order, wherever it sorts. An unknown order has no jobs.
 */
async function listOrderJobs(
  tenant: Tenant,
  jobIds: readonly number[],
  filter: repo.JobFilter & { awaitingApproval?: boolean },
  page: repo.JobPageRequest,
) {
  const jobs = (await repo.readJobs(tenant, jobIds)).filter(
    (job) =>
      (filter.status === undefined || job.status === filter.status) &&
      (!filter.awaitingApproval || job.awaiting_approval) &&
      (filter.machineId === undefined || job.machine_id === filter.machineId) &&
      (filter.dueBefore === undefined || (job.due_date !== null && job.due_date < filter.dueBefore)),
  );
  jobs.sort(inQueueOrder);
  const cursor = page.after && queueKeyOf(page.after);
  const rest = cursor === undefined ? jobs : jobs.filter((job) => queueKeyOf(job) > cursor);
  const { perPage } = page;
  const items = rest.slice((page.page - 1) * perPage, page.page * perPage).map(present);
  return { items, total: jobs.length, capped: false, hasMore: page.page * perPage < rest.length };
}

/** Queue order, as the indexes sort: priority, due date (none last), creation, id. */
function inQueueOrder(a: JobRecord, b: JobRecord): number {
  return (
    priorityRank(a.priority) - priorityRank(b.priority) ||
    (a.due_date ?? '9999-12-31').localeCompare(b.due_date ?? '9999-12-31') ||
    a.created_at.localeCompare(b.created_at) ||
    a.id - b.id
  );
}

/** 422 for a machine id the tenant does not have. */
function unknownMachine(id: number): ValidationError {
  return new ValidationError('Unknown machine', [{ field: 'machine_id', message: `No machine with id ${id}` }]);
}

/** 409 when a job cannot start on the machine: it is running another job, or in maintenance or offline. */
function assertCanStart(machine: MachineRecord, jobId: number): void {
  if (machine.status === 'idle') return;
  const why =
    machine.status === 'running'
      ? `it is running job ${machine.current_job_id}; one machine runs one job at a time`
      : `it is ${machine.status}; no job can start on it until it is idle`;
  throw new ConflictError(`Job ${jobId} cannot start on machine ${machine.id}: ${why}`, [{ field: 'machine_id', message: why }]);
}

/**
 * The machines' side of a change from `before` to `after`: the open-job counts of the machine it
 * leaves and the one it is assigned to, and the claim or release when it starts or stops running.
 */
function machineParts(before: JobRecord, after: JobRecord, now: string, tenant: Tenant): Part[] {
  const changes: [number, MachineChange][] = [];
  const openBefore = isOpenJob(before.status);
  const openAfter = isOpenJob(after.status);
  if (before.machine_id !== null && openBefore && (before.machine_id !== after.machine_id || !openAfter)) {
    changes.push([before.machine_id, { openJobs: -1 }]);
  }
  if (after.machine_id !== null && openAfter && (before.machine_id !== after.machine_id || !openBefore)) {
    changes.push([after.machine_id, { openJobs: 1 }]);
  }
  const effects = machineEffects(before.status, after.status, before.machine_id, after.machine_id);
  if (effects.release !== undefined) changes.push([effects.release, { release: before.id }]);
  if (effects.claim !== undefined) changes.push([effects.claim, { claim: before.id }]);
  return [...mergeMachineChanges(changes)].map(([machineId, change]) => ({
    item: machineChange(tenant, machineId, change, now),
    onConditionFailure: machineMoved,
  }));
}

/** The job item, its list entry when it moves in the lists, and the status counters. */
function jobParts(tenant: Tenant, before: JobRecord, after: JobRecord): Part[] {
  return [
    { item: jobUpdate(tenant, before, after), onConditionFailure: jobMoved },
    ...(listEntryMoves(before, after) ? [jobListEntryPut(tenant, after)] : []),
    ...awaitingEntryMoves(tenant, before, after),
    ...(before.status === after.status ? [] : jobCounterMoves(tenant, [[before.status, after.status]])),
  ];
}

/** Reads the machine a change assigns (422 when the tenant has none) and the one it starts on. */
async function machinesOf(tenant: Tenant, ids: (number | null | undefined)[]): Promise<Map<number, MachineRecord>> {
  const wanted = ids.filter((id): id is number => typeof id === 'number');
  const machines = await repo.readMachines(tenant, wanted);
  for (const id of wanted) if (!machines.has(id)) throw unknownMachine(id);
  return machines;
}

/** A job's move, decided: the job before and after it, and the parts that write it (the job, its machines, `production.job.completed`). */
export interface JobMove {
  before: JobRecord;
  after: JobRecord;
  parts: Part[];
  now: string;
}

/**
 * Decides a move of `job` along the status machine (PUT /v1/production/jobs/{id}/status; `by`: the
 * key prefix): the rules, the machines it leaves or starts on (read), the job after it and its
 * parts. What the move does to the job's order is the process layer's to add
 * (shared/fulfilment/job-moves.ts), in the same transaction.
 */
export async function prepareJobMove(tenant: Tenant, job: JobRecord, change: JobStatusChange, by: string): Promise<JobMove> {
  const id = job.id;
  assertJobTransition(job.status, change.status, job.held_from);
  const machineId = change.machine_id ?? job.machine_id;
  if (needsMachine(change.status) && machineId === null) {
    throw new ValidationError(`A job needs a machine to be ${change.status}`, [
      { field: 'machine_id', message: `required: job ${id} has no machine yet` },
    ]);
  }
  if (change.machine_id !== undefined && change.machine_id !== job.machine_id && isRunning(job.status) && !isRunning(change.status)) {
    throw new ConflictError(
      `Job ${id} is ${job.status} on machine ${job.machine_id}; it can change machine when it moves on to run elsewhere`,
      [{ field: 'machine_id', message: `cannot change while the job is ${job.status}` }],
    );
  }
  const effects = machineEffects(job.status, change.status, job.machine_id, machineId);
  const changedMachine = machineId !== job.machine_id ? machineId : undefined;
  const machines = await machinesOf(tenant, [changedMachine, effects.claim]);
  if (effects.claim !== undefined) assertCanStart(machines.get(effects.claim)!, id);
  const now = new Date().toISOString();
  const after = movedJob(job, {
    to: change.status,
    machineId,
    machine: changedMachine == null ? undefined : machines.get(changedMachine),
    note: change.note ?? null,
    by,
    now,
  });
  return {
    before: job,
    after,
    now,
    parts: [
      ...jobParts(tenant, job, after),
      ...machineParts(job, after, now, tenant),
      ...(after.status === 'completed' ? [eventPut(tenant, jobCompleted, { production_job: present(after) }).item] : []),
    ],
  };
}

export { present as presentJob };

/** Changes a job's machine, priority, due date or notes (PUT /v1/production/jobs/{id}). */
export async function updateJob(tenant: Tenant, id: number, changes: JobUpdate): Promise<Job> {
  return retryOnVersionConflict('production job', async () => {
    const job = await repo.requireJob(tenant, id, true);
    const planning = (['machine_id', 'priority', 'due_date'] as const).filter((field) => changes[field] !== undefined);
    if (planning.length && isClosedJob(job.status)) {
      throw new ConflictError(
        `Job ${id} is ${job.status}; only its notes can change`,
        planning.map((field) => ({ field, message: `cannot change once the job is ${job.status}` })),
      );
    }
    const newMachine = changes.machine_id !== undefined && changes.machine_id !== job.machine_id ? changes.machine_id : undefined;
    if (newMachine !== undefined && isRunning(job.status)) {
      throw new ConflictError(`Job ${id} is ${job.status} on machine ${job.machine_id}; put it on hold first to move it`, [
        { field: 'machine_id', message: `cannot change while the job is ${job.status}` },
      ]);
    }
    const machines = await machinesOf(tenant, [newMachine]);
    const now = new Date().toISOString();
    const machine = newMachine === undefined ? undefined : machines.get(newMachine)!;
    const after: JobRecord = {
      ...job,
      ...(machine ? { machine_id: machine.id, estimated_minutes: estimateMinutes(job.quantity, machine) } : {}),
      ...(changes.priority !== undefined ? { priority: changes.priority } : {}),
      ...(changes.due_date !== undefined ? { due_date: changes.due_date } : {}),
      ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
      updated_at: now,
      version: job.version + 1,
    };
    await repo.writeProduction([...jobParts(tenant, job, after), ...machineParts(job, after, now, tenant)]);
    return present(after);
  });
}

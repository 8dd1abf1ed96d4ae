/**
 * Production machines: create, read, list, change, delete, and the queue of one machine with
 * estimated windows. A machine's status follows its jobs (running while one is printing or
 * finishing, written by the jobs' own transactions); by hand it is set to idle, maintenance or
 * offline — not while a job runs on it.
 */
import type { Tenant } from '#shared/auth/principal';
import { productionKeys } from '#shared/db/keys';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { versionedDelete } from '#shared/db/update-expression';
import { ConflictError, VersionConflict } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { queueWindows } from './estimates';
import { runningSince } from './job-records';
import * as repo from './repository';
import type { Machine, MachineCreate, MachineListQuery, MachineQueue, MachineUpdate } from './schema';
import { machinePut, machineTotal, machineUpdate, storedJob, storedMachine, type MachineRecord } from './stored';

const present: typeof storedMachine.view = (value) => storedMachine.view(value);

const machineMoved = () => new VersionConflict('machine');

/** The scheduled jobs a queue answer shows at most (after the running one). */
export const QUEUE_LIMIT = 100;

const capabilitiesOf = (input: MachineCreate['capabilities']): MachineRecord['capabilities'] => ({
  max_sheet_width_mm: input?.max_sheet_width_mm ?? null,
  max_sheet_height_mm: input?.max_sheet_height_mm ?? null,
  colors: input?.colors ?? null,
  duplex: input?.duplex ?? null,
  other: input?.other ?? {},
});

export async function createMachine(tenant: Tenant, input: MachineCreate): Promise<Machine> {
  const id = await nextId(tenant, 'machine');
  const now = new Date().toISOString();
  const machine: MachineRecord = {
    id,
    name: input.name,
    type: input.type,
    status: input.status ?? 'idle',
    current_job_id: null,
    capabilities: capabilitiesOf(input.capabilities),
    speed_per_hour: input.speed_per_hour,
    setup_minutes: input.setup_minutes ?? 0,
    created_at: now,
    updated_at: now,
    version: 1,
    open_jobs: 0,
  };
  await repo.writeProduction([machinePut(tenant, machine), machineTotal(tenant, 1)]);
  return present(machine);
}

export async function getMachine(tenant: Tenant, id: number): Promise<Machine> {
  return present(await repo.requireMachine(tenant, id));
}

/** The cursor's machine: the one `starting_after` names (422 when the tenant has none). */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<MachineRecord | undefined> {
  return cursorEntry(id, 'machine', (id) => repo.readMachine(tenant, id));
}

export async function listMachines(
  tenant: Tenant,
  query: MachineListQuery,
): Promise<{ items: Machine[]; total: number; capped: boolean; hasMore: boolean }> {
  const after = await cursorOf(tenant, query.starting_after);
  const page = { page: query.page, perPage: query.per_page, after };
  const result = await repo.listMachines(tenant, { status: query.status, type: query.type }, page);
  return { ...result, items: result.items.map(present) };
}

export async function updateMachine(tenant: Tenant, id: number, changes: MachineUpdate): Promise<Machine> {
  return retryOnVersionConflict('machine', async () => {
    const machine = await repo.requireMachine(tenant, id, true);
    if (changes.status !== undefined && changes.status !== machine.status && machine.status === 'running') {
      throw new ConflictError(
        `Machine ${id} is running job ${machine.current_job_id}; put the job on hold (or move it on) before setting the machine ${changes.status}`,
        [{ field: 'status', message: `cannot change while job ${machine.current_job_id} runs on it` }],
      );
    }
    const after: MachineRecord = {
      ...machine,
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.type !== undefined ? { type: changes.type } : {}),
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      ...(changes.capabilities !== undefined ? { capabilities: capabilitiesOf(changes.capabilities) } : {}),
      ...(changes.speed_per_hour !== undefined ? { speed_per_hour: changes.speed_per_hour } : {}),
      ...(changes.setup_minutes !== undefined ? { setup_minutes: changes.setup_minutes } : {}),
      updated_at: new Date().toISOString(),
      version: machine.version + 1,
    };
    await repo.writeProduction([{ item: machineUpdate(tenant, machine, after), onConditionFailure: machineMoved }]);
    return present(after);
  });
}

/** Deletes a machine no open job is assigned to (the condition is on its count of open jobs). */
export async function deleteMachine(tenant: Tenant, id: number): Promise<{ id: number; deleted: true }> {
  return retryOnVersionConflict('machine', async () => {
    const machine = await repo.requireMachine(tenant, id, true);
    const blocked = () =>
      new ConflictError(`Machine ${id} has open production jobs assigned; move them to another machine or finish them first`, [
        { field: 'id', message: `machine has ${machine.open_jobs} open job${machine.open_jobs === 1 ? '' : 's'}` },
      ]);
    if (machine.open_jobs > 0) throw blocked();
    await repo.writeProduction([
      { item: versionedDelete(productionKeys.machine(tenant, id), machine.version, 'open_jobs'), onConditionFailure: machineMoved },
      machineTotal(tenant, -1),
    ]);
    return { id, deleted: true as const };
  });
}

/**
 * The machine's queue: the job running on it (first), then its scheduled jobs in queue order
 * (priority, due date, creation), each with the window it is estimated to run in, computed
 * forward from now with the machine's current speed and setup time.
 */
export async function machineQueue(tenant: Tenant, id: number): Promise<MachineQueue> {
  const machine = await repo.requireMachine(tenant, id);
  const [running, scheduled] = await Promise.all([
    machine.current_job_id === null ? undefined : repo.readJob(tenant, machine.current_job_id),
    repo.scheduledJobs(tenant, id, QUEUE_LIMIT),
  ]);
  const jobs = [...(running ? [running] : []), ...scheduled.jobs];
  const now = new Date();
  const windows = queueWindows(
    now,
    machine,
    jobs.map((job) => ({ quantity: job.quantity, ...(job === running ? { since: runningSince(job) } : {}) })),
  );
  return {
    machine: present(machine),
    as_of: now.toISOString(),
    entries: jobs.map((job, index) => ({ position: index + 1, job: storedJob.view(job), ...windows[index]! })),
    has_more: scheduled.hasMore,
  };
}

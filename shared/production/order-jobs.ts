/**
 * Production's part in an order's own status change (shared/orders/service.ts asks this module
 * and writes what it answers in the order's transaction):
 * - confirming an order creates one queued job per line, with a `production.job.created` each;
 * - cancelling it cancels its open jobs and frees the machines they ran on;
 * - moving it by hand to ready or beyond is refused while jobs are open (409 naming them), and
 *   the order's update carries the same rule as a condition.
 */
import type { Tenant } from '#shared/auth/principal';
import { reserveIds } from '#shared/db/counters';
import type { TransactItem, TransactionPart } from '#shared/db/table';
import { ConflictError, VersionConflict } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import type { OrderStatus } from '#shared/orders/status';
import type { OrderRecord, OrderUpdateExtras } from '#shared/orders/stored';
import { jobCreated } from './events';
import { cancelledWithOrder, jobOfLine, withArtwork } from './job-records';
import { readJobs } from './repository';
import { isOpenJob, isRunning, type JobStatus } from './status';
import {
  awaitingEntryMoves,
  jobArtworkUpdate,
  jobAwaitingEntryPut,
  jobCounterMoves,
  jobListEntryPut,
  jobPut,
  jobUpdate,
  machineChange,
  mergeMachineChanges,
  storedJob,
  type JobRecord,
  type MachineChange,
} from './stored';

/** What the order's transaction adds: parts of its own, and what goes into the order's update. */
export interface ProductionPlan {
  parts: (TransactItem | TransactionPart)[];
  /** The order's `job_ids` after the change (set when jobs were created). */
  jobIds?: number[];
  extras: OrderUpdateExtras;
}

const NOTHING: ProductionPlan = { parts: [], extras: {} };

/** Statuses an order reaches only when production is done. */
const AFTER_PRODUCTION: readonly OrderStatus[] = ['ready', 'shipped', 'completed'];

/** Confirming (or starting) a pending order is what creates its jobs. */
export const entersProduction = (from: OrderStatus, to: OrderStatus): boolean =>
  from === 'pending' && (to === 'confirmed' || to === 'in_production');

const jobMoved = () => new VersionConflict('production job');

/** The open jobs of an order, read strongly consistent (a decision is made on them). */
const openJobsOf = async (tenant: Tenant, order: OrderRecord): Promise<JobRecord[]> =>
  (await readJobs(tenant, order.job_ids, true)).filter((job) => isOpenJob(job.status));

function openJobsConflict(order: OrderRecord, jobs: JobRecord[], to: OrderStatus): ConflictError {
  const named = jobs.map((job) => `job ${job.id} (${job.status})`).join(', ');
  return new ConflictError(
    `Order ${order.order_number} has ${jobs.length} open production job${jobs.length === 1 ? '' : 's'}: ${named}; it moves to ready when they are completed (or cancelled)`,
    jobs.map((job) => ({ field: 'status', message: `cannot move to ${to} while production job ${job.id} is ${job.status}` })),
  );
}

/**
 * The jobs of a newly confirmed order (ids reserved): one per line, their list entries, counters
 * and events; the jobs of the lines in `awaiting` wait for a proof's approval (listed as such).
 */
export function confirmationPlan(
  tenant: Tenant,
  order: OrderRecord,
  ids: readonly number[],
  by: string,
  now: string,
  awaiting: ReadonlySet<number> = new Set(),
): ProductionPlan {
  const jobs = order.items.map((line, index) => jobOfLine(ids[index]!, order, line, now, by, awaiting.has(line.id)));
  return {
    parts: [
      ...jobs.flatMap((job) => [
        jobPut(tenant, job),
        jobListEntryPut(tenant, job),
        ...(job.awaiting_approval ? [jobAwaitingEntryPut(tenant, job)] : []),
      ]),
      ...jobCounterMoves(
        tenant,
        jobs.map(() => [null, 'queued']),
      ),
      ...jobs.map((job) => eventPut(tenant, jobCreated, { production_job: storedJob.view(job) }).item),
    ],
    jobIds: [...ids],
    extras: { set: ['open_jobs = :jobs'], values: { ':jobs': jobs.length } },
  };
}

/**
 * Cancels the open jobs of a cancelled order: each conditional on the version read (a job that
 * moved meanwhile makes the order's change read again), its machine freed when it was running,
 * every machine's count of open jobs lowered — one update per machine, one per counter.
 */
export function cancellationPlan(tenant: Tenant, jobs: readonly JobRecord[], by: string, now: string): ProductionPlan {
  const cancelled = jobs.map((job) => [job, cancelledWithOrder(job, by, now)] as const);
  const machines = mergeMachineChanges(
    jobs
      .filter((job) => job.machine_id !== null)
      .map((job): [number, MachineChange] => [job.machine_id!, { openJobs: -1, ...(isRunning(job.status) ? { release: job.id } : {}) }]),
  );
  return {
    parts: [
      ...cancelled.map(([before, after]) => ({ item: jobUpdate(tenant, before, after), onConditionFailure: jobMoved })),
      ...cancelled.flatMap(([before, after]) => awaitingEntryMoves(tenant, before, after)),
      ...jobCounterMoves(
        tenant,
        jobs.map((job) => [job.status, 'cancelled']),
      ),
      ...[...machines].map(([machineId, change]) => ({
        item: machineChange(tenant, machineId, change, now),
        onConditionFailure: jobMoved,
      })),
    ],
    extras: { set: ['open_jobs = :none'], values: { ':none': 0 } },
  };
}

/**
 * What production adds to an order's change from `before` to `after` by `by` (a key prefix).
 * Orders confirmed before production existed have no jobs and move as they always did.
 * `awaiting`: the lines whose jobs wait for a proof's approval, should the change create them.
 */
export async function productionForOrderChange(
  tenant: Tenant,
  before: OrderRecord,
  after: OrderRecord,
  by: string,
  awaiting?: ReadonlySet<number>,
): Promise<ProductionPlan> {
  const now = after.updated_at;
  const to = after.status;
  if (to === before.status) return NOTHING;
  // The jobs take the order as it is after this change (a due date sent with the confirmation counts).
  if (entersProduction(before.status, to) && before.job_ids.length === 0) {
    return confirmationPlan(tenant, after, await reserveIds(tenant, 'job', after.items.length), by, now, awaiting);
  }
  if (to === 'cancelled' && before.open_jobs > 0) return cancellationPlan(tenant, await openJobsOf(tenant, before), by, now);
  if (AFTER_PRODUCTION.includes(to)) {
    if (before.open_jobs > 0) {
      const open = await openJobsOf(tenant, before);
      // The last one closed between the two reads: read the order again.
      if (open.length === 0) throw new VersionConflict('order');
      throw openJobsConflict(before, open, to);
    }
    return { parts: [], extras: { condition: '(attribute_not_exists(open_jobs) OR open_jobs <= :none)', values: { ':none': 0 } } };
  }
  return NOTHING;
}

/** The job states in which a line's artwork may still be replaced: nothing of it printed yet (a failed job waits for its reprint). */
const ARTWORK_OPEN: readonly JobStatus[] = ['queued', 'scheduled', 'failed'];

/**
 * Production's part in replacing line `lineId`'s artwork (docs/orders.md#replacing-a-lines-artwork):
 * the line's jobs that have not started printing take the new files and `awaiting` (whether a
 * proof must now be approved), each conditional on its status and version; a cancelled job stays
 * as it is. A job printing, finishing, in quality check, on hold or completed is 409: replacing
 * artwork mid-print is a reprint decision (fail the job, replace, queue it again).
 */
export async function artworkReplacementPlan(
  tenant: Tenant,
  order: OrderRecord,
  lineId: number,
  fileIds: readonly number[],
  awaiting: boolean,
  by: string,
  now: string,
): Promise<TransactItem[]> {
  const jobs = (await readJobs(tenant, order.job_ids, true)).filter((job) => job.order_item_id === lineId && job.status !== 'cancelled');
  const started = jobs.filter((job) => !ARTWORK_OPEN.includes(job.status));
  if (started.length) {
    throw new ConflictError(
      `Line ${lineId}'s artwork cannot be replaced: ${started.map((job) => `job ${job.id} is ${job.status}`).join(', ')}; replacing artwork once printing started is a reprint (fail the job, replace the artwork, queue it again)`,
      started.map((job) => ({ field: 'job_id', message: `job ${job.id}: ${job.status}` })),
    );
  }
  return jobs.flatMap((job) => jobArtworkUpdate(tenant, job, withArtwork(job, fileIds, awaiting, now, by)));
}

/**
 * A production job's move with what it does to its order (PUT /v1/production/jobs/{id}/status):
 * production decides the move (`prepareJobMove`: the rules, the machines), job-orders.ts what it
 * does to the order through the orders' transitions (the first start moves a confirmed order to
 * in_production, the last job closing moves it to ready), and one transaction writes both —
 * conditional on the job's version, the machines, and the order's version or count of open jobs;
 * a move to printing passes the proof gate first (shared/proofs/gate.ts) and is conditional on
 * the line's approval marker too.
 * A VersionConflict reads again. Also an order's jobs (`GET /v1/production/jobs?order_id=`): the
 * ids the order holds.
 */
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { readOrder, requireOrder } from '#shared/orders/repository';
import { printingGate } from '#shared/proofs/gate';
import { listJobs as listAllJobs, listJobsOfOrder, prepareJobMove, presentJob } from '#shared/production/jobs';
import { requireJob, writeJobMove } from '#shared/production/repository';
import type { Job, JobListQuery, JobStatusChange } from '#shared/production/schema';
import { concernsOrder, orderPartsOfMove } from './job-orders';

/** Moves a job along the status machine; `by`: the key prefix. */
export function moveJob(tenant: Tenant, id: number, change: JobStatusChange, by: string): Promise<Job> {
  return retryOnVersionConflict('production job', async () => {
    const job = await requireJob(tenant, id, true);
    const [move, order] = await Promise.all([
      prepareJobMove(tenant, job, change, by),
      concernsOrder(change.status) ? requireOrder(tenant, job.order_id, true) : undefined,
    ]);
    // The proof gate (docs/proofs.md): printing only with an approved proof of the line's current artwork.
    const gate = order && move.after.status === 'printing' ? await printingGate(tenant, order, job.order_item_id, job.id) : [];
    await writeJobMove([...move.parts, ...(order ? orderPartsOfMove(tenant, order, move.after, move.now) : []), ...gate]);
    return presentJob(move.after);
  });
}

/** `GET /v1/production/jobs`: with `order_id`, the jobs that order holds (an unknown order has none). */
export async function listJobs(tenant: Tenant, query: JobListQuery) {
  if (query.order_id === undefined) return listAllJobs(tenant, query);
  const order = await readOrder(tenant, query.order_id);
  return listJobsOfOrder(tenant, order?.job_ids ?? [], query);
}

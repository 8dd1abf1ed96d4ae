/**
 * What a job's move does to its order, written in the job's transaction (docs/production.md):
 * - the first job of an order to enter printing writes `production.started` (once: the order
 *   keeps `production_started_at`) and moves a confirmed order to in_production;
 * - a job that closes (completed or cancelled) lowers the order's count of open jobs; when that
 *   was the last one and at least one job completed, an in_production order moves to ready and
 *   `production.completed` is written (once: `production_completed_at`).
 * Order moves write `order.updated`, as moves by hand do. Each order write is conditional on what
 * was read (version, or the count of open jobs), so two jobs finishing together cannot both be
 * "the last": the loser reads again.
 */
import type { Tenant } from '#shared/auth/principal';
import { jobClosedCount, orderChangeParts, productionStartMark, type Part } from '#shared/orders/transitions';
import type { OrderRecord } from '#shared/orders/stored';
import { eventPut } from '#shared/events/outbox';
import { productionCompleted, productionStarted } from '#shared/production/events';
import { isClosedJob, type JobStatus } from '#shared/production/status';
import { storedJob, type JobRecord } from '#shared/production/stored';

/** Whether a move to `to` concerns the order (then the service reads it first). */
export const concernsOrder = (to: JobStatus): boolean => to === 'printing' || isClosedJob(to);

const orderReference = (order: OrderRecord) => ({ id: order.id, order_number: order.order_number, status: order.status });

/**
 * The first start: a confirmed order moves to in_production (a change of the order: versioned,
 * through the orders' transitions); an order moved there by hand already only gets its start time
 * — no new version, since nothing the API shows changes (a client's If-Match stays valid).
 */
function started(tenant: Tenant, order: OrderRecord, job: JobRecord, now: string): Part[] {
  if (order.production_started_at !== null) return [];
  const moves = order.status === 'confirmed';
  const after: OrderRecord = moves
    ? { ...order, status: 'in_production', production_started_at: now, updated_at: now, version: order.version + 1 }
    : order;
  const event = eventPut(tenant, productionStarted, { production_job: storedJob.view(job), order: orderReference(after) }).item;
  if (!moves) return [productionStartMark(tenant, order.id, now), event];
  const mark = { set: ['production_started_at = :started'], values: { ':started': now } };
  return [...orderChangeParts(tenant, order, after, { by: 'production', extras: mark }), event];
}

function closed(tenant: Tenant, order: OrderRecord, job: JobRecord, now: string): Part[] {
  const completed = job.status === 'completed' ? 1 : 0;
  const last = order.open_jobs <= 1;
  const finishes = last && order.completed_jobs + completed > 0 && order.status === 'in_production';
  if (!finishes) return [jobClosedCount(tenant, order.id, completed, last)];
  const after: OrderRecord = {
    ...order,
    status: 'ready',
    production_completed_at: now,
    open_jobs: 0,
    completed_jobs: order.completed_jobs + completed,
    updated_at: now,
    version: order.version + 1,
  };
  const counters = {
    set: [
      'open_jobs = open_jobs - :one',
      'completed_jobs = if_not_exists(completed_jobs, :zero) + :completed',
      'production_completed_at = :finished',
    ],
    condition: 'open_jobs = :one',
    values: { ':one': 1, ':zero': 0, ':completed': completed, ':finished': now },
  };
  return [
    ...orderChangeParts(tenant, order, after, { by: 'production', extras: counters }),
    eventPut(tenant, productionCompleted, { production_job: storedJob.view(job), order: orderReference(after) }).item,
  ];
}

/** The order's part of a job's move to `job.status` (`job`: the job after the move). */
export function orderPartsOfMove(tenant: Tenant, order: OrderRecord, job: JobRecord, now: string): Part[] {
  if (job.status === 'printing') return started(tenant, order, job, now);
  if (isClosedJob(job.status)) return closed(tenant, order, job, now);
  return [];
}

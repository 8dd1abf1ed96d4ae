/**
 * Production time estimates: how long a job takes on a machine, and when each job of a machine's
 * queue will run. Pure: the queue endpoint reads the machine and its jobs and asks these.
 */

export interface MachineSpeed {
  /** Units (sheets, items) per hour. */
  speed_per_hour: number;
  /** Minutes of make-ready before each job. */
  setup_minutes: number;
}

/** Minutes a job of `quantity` units takes on the machine: setup + quantity ÷ speed, rounded up to whole minutes. */
export const estimateMinutes = (quantity: number, machine: MachineSpeed): number =>
  machine.setup_minutes + Math.ceil((quantity / machine.speed_per_hour) * 60);

export interface QueuedWork {
  quantity: number;
  /** For the running job: when it started on the machine (its window starts there, not now). */
  since?: string;
}

export interface Window {
  estimated_minutes: number;
  estimated_start: string;
  estimated_end: string;
}

const MINUTE = 60_000;

/**
 * Consecutive windows, computed forward from `now`: the running job (first, when there is one)
 * from when it started, ending no earlier than now (an overrunning job is "ending now"); every
 * job after it starts when the one before ends.
 */
export function queueWindows(now: Date, machine: MachineSpeed, jobs: readonly QueuedWork[]): Window[] {
  let cursor = now.getTime();
  return jobs.map((job) => {
    const minutes = estimateMinutes(job.quantity, machine);
    const start = job.since === undefined ? cursor : Math.min(Date.parse(job.since), cursor);
    const end = Math.max(start + minutes * MINUTE, cursor);
    cursor = end;
    return { estimated_minutes: minutes, estimated_start: new Date(start).toISOString(), estimated_end: new Date(end).toISOString() };
  });
}

/**
 * The retry schedule and how it maps onto SQS visibility timeouts.
 *
 * After a failed attempt the delivery worker records when the next attempt is due and hides the
 * message for that long (ChangeMessageVisibility), reporting it as a batch item failure so it is
 * not deleted. SQS caps a message's visibility at 12 h counted from its receive, so a longer step
 * (the 24 h one) takes several hops: the message comes back early, the worker sees that the
 * recorded time has not come yet and hides it again without attempting. Every hop is a receive
 * and counts toward the queue's maxReceiveCount, which is sized for it in shared/resources.ts.
 */

/** Seconds after attempt 1, 2, …: about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [60, 300, 1800, 7200, 21600, 43200, 86400];

/** `WEBHOOK_RETRY_SCHEDULE=1,1,1` (seconds; `s`, `m`, `h` suffixes allowed): tests use a short one. */
export const RETRY_SCHEDULE_ENV = 'WEBHOOK_RETRY_SCHEDULE';

/** Below SQS's 43,200 s, leaving room for the time between the receive and our call. */
export const MAX_VISIBILITY_SECONDS = 43_000;

const units: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600 };

/** Parses a schedule; throws on anything malformed, since a silent default would hide a typo. */
export function parseRetrySchedule(text: string): number[] {
  const steps = text.split(',').map((part) => part.trim());
  return steps.map((step) => {
    const match = /^(\d{1,6})([smh]?)$/.exec(step);
    const seconds = match ? Number(match[1]) * units[match[2]!]! : NaN;
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 7 * 24 * 3600) {
      throw new Error(`${RETRY_SCHEDULE_ENV}: "${step}" is not a delay between 1 s and 7 days (e.g. "60,300,1800" or "1m,5m,30m")`);
    }
    return seconds;
  });
}

export function retrySchedule(env: NodeJS.ProcessEnv = process.env): readonly number[] {
  const text = env[RETRY_SCHEDULE_ENV]?.trim();
  return text ? parseRetrySchedule(text) : DEFAULT_RETRY_SCHEDULE_SECONDS;
}

/** Attempts per delivery chain: the first one plus one per step. */
export const maxAttempts = (schedule: readonly number[]): number => schedule.length + 1;

/** Seconds to wait after the `attempt`-th attempt of a chain failed, or undefined after the last one. */
export function delayAfter(schedule: readonly number[], attempt: number): number | undefined {
  return schedule[attempt - 1];
}

/** The visibility to set for a wait of `seconds`: the whole wait, or one hop of it. */
export function visibilityFor(seconds: number): number {
  return Math.max(0, Math.min(Math.ceil(seconds), MAX_VISIBILITY_SECONDS));
}

/** Receives a full chain needs: one per attempt plus the extra hops of steps longer than the cap. */
export function receivesFor(schedule: readonly number[]): number {
  return maxAttempts(schedule) + schedule.reduce((extra, step) => extra + Math.ceil(step / MAX_VISIBILITY_SECONDS) - 1, 0);
}

/**
 * The local stand-in for an EventBridge schedule rule: invokes a worker every `everyMs`, one
 * invocation at a time (a run that outlasts the interval delays the next rather than overlapping
 * it). A failed run is logged and the next one comes on time, as with a scheduled Lambda on AWS.
 * Paused like the pollers (like disabling the rule): `pause` resolves once a run in progress has
 * finished, and no run starts until `resume`.
 */
import { pause } from './lambda-context';
import type { Poller } from './stream-poller';

export interface TimerOptions {
  name: string;
  everyMs: number;
  invoke(): Promise<unknown>;
}

export function startTimer(options: TimerOptions): Poller {
  const abort = new AbortController();
  let paused = false;
  let current: Promise<void> = Promise.resolve();
  const run = async () => {
    try {
      await options.invoke();
    } catch (error) {
      console.error(`[${options.name}] scheduled run failed`, error);
    }
  };
  const loop = (async () => {
    while (!abort.signal.aborted) {
      await pause(options.everyMs, abort.signal);
      if (abort.signal.aborted || paused) continue;
      current = run();
      await current;
    }
  })();
  let stopping: Promise<void> | undefined;
  return {
    pause: async () => {
      paused = true;
      await current;
    },
    resume: () => {
      paused = false;
    },
    stop: () =>
      (stopping ??= (async () => {
        abort.abort();
        await loop;
      })()),
  };
}

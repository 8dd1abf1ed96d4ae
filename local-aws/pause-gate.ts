/**
 * Pausing a local poller the way disabling an event source mapping pauses it on AWS: no new
 * batch is read, the batches being handled finish, and on resume reading continues where it
 * stopped (a stopped and restarted stream poller would read the stream again from its start).
 *
 * Every polling loop calls `pass` before reading a batch. `pause` resolves once each of the
 * `loops` loops is waiting there; `resume` lets them go on.
 */
export class PauseGate {
  private paused = false;
  private waiting = 0;
  private resumed: (() => void)[] = [];
  private parked: (() => void)[] = [];

  constructor(
    private readonly loops: number,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', () => this.release(), { once: true });
  }

  /** Returns at once unless paused; otherwise when resumed or aborted. */
  async pass(): Promise<void> {
    if (!this.paused || this.signal.aborted) return;
    this.waiting++;
    this.notifyParked();
    await new Promise<void>((resolve) => this.resumed.push(resolve));
    this.waiting--;
  }

  /** Resolves once every loop has finished what it was doing and waits. */
  pause(): Promise<void> {
    this.paused = true;
    return new Promise<void>((resolve) => {
      this.parked.push(resolve);
      this.notifyParked();
    });
  }

  resume(): void {
    this.paused = false;
    this.release();
  }

  private notifyParked(): void {
    if (this.waiting < this.loops && !this.signal.aborted) return;
    this.parked.splice(0).forEach((resolve) => resolve());
  }

  private release(): void {
    this.resumed.splice(0).forEach((resolve) => resolve());
    this.parked.splice(0).forEach((resolve) => resolve());
  }
}

/**
 * The handle of a running poller: pause/resume through its gate; stop aborts it, waits for its
 * loops (each finishes the batch it is handling first) and then closes its client. Idempotent.
 */
export function pollerHandle(gate: PauseGate, abort: AbortController, running: Promise<unknown>, close: () => void) {
  let stopping: Promise<void> | undefined;
  return {
    pause: () => gate.pause(),
    resume: () => gate.resume(),
    stop: () =>
      (stopping ??= (async () => {
        abort.abort();
        await running;
        close();
      })()),
  };
}

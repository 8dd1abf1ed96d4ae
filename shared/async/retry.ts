/**
 * The one retry loop: runs `attempt` again while it fails with an error `isRetryable` accepts,
 * after a jittered, exponentially growing pause (colliding requests must not collide again), at most
 * `maxAttempts` times; then `exhausted(error)` is thrown (default: the last error).
 *
 * Retries nest in one place only: a domain operation retries its read-decide-write on a
 * VersionConflict, and the transaction it writes retries a bare TransactionConflict
 * (shared/db/transactions.ts). Their limits multiply, so both are small: see docs/data-model.md.
 */
export interface RetryOptions {
  isRetryable(error: unknown): boolean;
  maxAttempts: number;
  /** Pause before attempt n+1: random in [0, pauseMs × 2^(n−1)), at most `maxPauseMs` (default 2 s). */
  pauseMs: number;
  maxPauseMs?: number;
  /**
   * The pause before the next attempt instead of the jittered one (`backoffMs`), or `stop` to give
   * up now: a server's Retry-After, a deadline (an HTTP client's retries inside its function's time).
   */
  pause?(error: unknown, attemptNumber: number, backoffMs: number): number | 'stop';
  exhausted?(error: unknown, attemptNumber: number): unknown;
}

export async function retry<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!options.isRetryable(error)) throw error;
      const giveUp = () => (options.exhausted ? options.exhausted(error, attemptNumber) : error);
      if (attemptNumber >= options.maxAttempts) throw giveUp();
      const ceiling = Math.min(options.maxPauseMs ?? 2000, options.pauseMs * 2 ** (attemptNumber - 1));
      const backoff = Math.random() * ceiling;
      const pause = options.pause ? options.pause(error, attemptNumber, backoff) : backoff;
      if (pause === 'stop') throw giveUp();
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

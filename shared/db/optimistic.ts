import { retry } from '#shared/async/retry';
import { ConflictError, VersionConflict } from '#shared/errors';

/** Read-decide-write attempts of one optimistic operation before the caller gets a 409. */
export const OPTIMISTIC_ATTEMPTS = 5;

/**
 * Optimistic locking's loop: runs `operation` (read, decide, conditional write) again while its
 * write meets a VersionConflict — the item changed between our read and our write — and gives
 * up with 409 `conflict` after `maxAttempts` tries. `what` names the resource in the message;
 * `operation` learns which attempt it is (the first may reuse reads made before).
 */
export function retryOnVersionConflict<T>(
  what: string,
  operation: (attempt: number) => Promise<T>,
  maxAttempts = OPTIMISTIC_ATTEMPTS,
): Promise<T> {
  return retry(operation, {
    isRetryable: (error) => error instanceof VersionConflict,
    maxAttempts,
    pauseMs: 15,
    exhausted: () => new ConflictError(`The ${what} was changed by other requests at the same time; try again`),
  });
}

import { ConflictError } from '#shared/errors';

const MAX_ATTEMPTS = 6;

/**
 * Optimistic locking's retry loop: runs `operation` (read, decide, conditional write) again while
 * it fails with `isConflict` — the item changed between our read and our write — after a short
 * jittered pause so colliding requests do not collide again; gives up with 409 after 6 tries.
 */
export async function retryOnConflict<T>(operation: () => Promise<T>, isConflict: (error: unknown) => boolean, what: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError(`The ${what} was changed by another request at the same time; try again`);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * attempt));
    }
  }
}

import { describe, expect, it } from 'vitest';
import { retry } from '#shared/async/retry';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, VersionConflict } from '#shared/errors';

describe('the one retry loop', () => {
  it('runs again while the error is retryable, and stops at maxAttempts with what exhausted says', async () => {
    const attempts: number[] = [];
    const failing = retry(
      async (attempt) => {
        attempts.push(attempt);
        throw new Error('busy');
      },
      { isRetryable: () => true, maxAttempts: 3, pauseMs: 1, exhausted: () => new Error('gave up') },
    );
    await expect(failing).rejects.toThrow('gave up');
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('rethrows at once what is not retryable', async () => {
    let calls = 0;
    await expect(
      retry(
        async () => {
          calls++;
          throw new TypeError('bug');
        },
        { isRetryable: (error) => !(error instanceof TypeError), maxAttempts: 5, pauseMs: 1 },
      ),
    ).rejects.toThrow('bug');
    expect(calls).toBe(1);
  });

  it('answers 409 once optimistic attempts keep meeting a VersionConflict, and returns the first success', async () => {
    await expect(retryOnVersionConflict('order', async () => Promise.reject(new VersionConflict()), 2)).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(
      retryOnVersionConflict('order', async (attempt) => (attempt < 2 ? Promise.reject(new VersionConflict()) : 'done')),
    ).resolves.toBe('done');
  });
});

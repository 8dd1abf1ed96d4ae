/**
 * Bounded concurrency for the webhook workers: a stream batch can fan out to thousands of
 * writes, which should overlap (each is a round trip) without all being opened at once.
 */

/**
 * Runs `work` over `items` with at most `limit` in flight. Unlike Promise.all it waits for every
 * started item to settle before rethrowing the first failure, so nothing is left running behind
 * a retry.
 */
export async function forEachLimit<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    // After a failure no new item is started: the caller's whole batch is retried anyway.
    while (next < items.length && !failure) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
}

/**
 * Coalesced reads for one batch of concurrent work (a queue batch of webhook deliveries): the
 * GetItem calls its messages make in the same turn of the event loop become one BatchGetItem
 * (up to 100 keys), and equal keys are read once — ten deliveries of one event to one
 * registration read that registration and that event once, not ten times each. Reads are
 * strongly consistent, like the single reads they replace.
 *
 * A reader lives for one batch only: what it read is a snapshot taken when the batch started,
 * which is what every message of a batch handled concurrently saw before as well.
 */
import { batchGet, keyId } from './batch';
import type { ItemKey } from './keys';

type Item = Record<string, unknown>;

export type ItemReader = (key: ItemKey) => Promise<Item | undefined>;

/** A reader for one batch (see above). */
export function batchItemReader(): ItemReader {
  const results = new Map<string, Promise<Item | undefined>>();
  let queued: { key: ItemKey; resolve: (item: Item | undefined) => void; reject: (error: unknown) => void }[] = [];

  const flush = () => {
    const batch = queued;
    queued = [];
    batchGet(
      batch.map((entry) => entry.key),
      { consistent: true },
    ).then(
      (found) => batch.forEach((entry) => entry.resolve(found.get(keyId(entry.key)))),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  };

  return (key) => {
    const id = keyId(key);
    let result = results.get(id);
    if (!result) {
      result = new Promise<Item | undefined>((resolve, reject) => {
        // setImmediate rather than a microtask: every message of the batch gets to ask first.
        if (queued.length === 0) setImmediate(flush);
        queued.push({ key, resolve, reject });
      });
      results.set(id, result);
    }
    return result;
  };
}

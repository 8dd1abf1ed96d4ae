/**
 * Coalesced reads for one delivery batch: the GetItem calls its messages make in the same turn of
 * the event loop become one BatchGetItem (up to 100 keys), and equal keys are read once — ten
 * deliveries of one event to one registration read that registration and that event once, not
 * ten times each. Reads are strongly consistent, like the single reads they replace (a pause,
 * deletion or new secret applies to the very next batch).
 *
 * A reader lives for one batch only: what it read is a snapshot taken when the batch started,
 * which is what every message of a batch handled concurrently saw before as well.
 */
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import type { ItemKey } from './keys';
import { tableName } from './table';

type Item = Record<string, unknown>;

/** BatchGetItem's limit per call. */
const MAX_KEYS = 100;
/** Unprocessed keys (throttling) are asked for again this many times, with a growing pause. */
const MAX_ROUNDS = 6;

const keyOf = (key: ItemKey): string => `${key.pk}\u0000${key.sk}`;

async function batchGet(keys: ItemKey[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (let start = 0; start < keys.length; start += MAX_KEYS) {
    let pending: Record<string, unknown>[] | undefined = keys.slice(start, start + MAX_KEYS).map((key) => ({ pk: key.pk, sk: key.sk }));
    for (let round = 0; pending?.length; round++) {
      if (round >= MAX_ROUNDS) throw new Error(`BatchGetItem left ${pending.length} key(s) unprocessed after ${MAX_ROUNDS} rounds`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** round));
      const table = tableName();
      const result: BatchGetCommandOutput = await dynamo().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of result.Responses?.[table] ?? []) found.set(keyOf({ pk: String(item.pk), sk: String(item.sk) }), item);
      pending = result.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return found;
}

export type ItemReader = (key: ItemKey) => Promise<Item | undefined>;

/** A reader for one batch (see above). */
export function batchItemReader(): ItemReader {
  const results = new Map<string, Promise<Item | undefined>>();
  let queued: { key: ItemKey; resolve: (item: Item | undefined) => void; reject: (error: unknown) => void }[] = [];

  const flush = () => {
    const batch = queued;
    queued = [];
    batchGet(batch.map((entry) => entry.key)).then(
      (found) => batch.forEach((entry) => entry.resolve(found.get(keyOf(entry.key)))),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
  };

  return (key) => {
    const id = keyOf(key);
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

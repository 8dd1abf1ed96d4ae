/**
 * Batched reads and writes: BatchGetItem (100 keys a call) and BatchWriteItem (25 items a call,
 * several chunks in flight). What DynamoDB leaves unprocessed (it does when it throttles) is
 * asked for again with the one retry loop (shared/async/retry.ts). Batch writes are not atomic:
 * callers make the result visible with one conditional write afterwards (legacy price tables,
 * shared/legacy-products/prices.ts).
 */
import { BatchGetCommand, BatchWriteCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { retry } from '#shared/async/retry';
import { dynamo } from '#shared/clients/dynamodb';
import type { ItemKey } from './keys';
import { tableName } from './table';

export const BATCH_WRITE_SIZE = 25;
/** BatchGetItem's limit per call. */
export const BATCH_GET_SIZE = 100;
/** Calls per chunk while DynamoDB leaves part of it unprocessed (throttling), with growing pauses. */
const MAX_ROUNDS = 10;

/** Part of a batch was left unprocessed: ask again for that part. */
class Unprocessed extends Error {}

/** Sends `chunk`, then what each answer left unprocessed, until nothing is left (at most MAX_ROUNDS calls). */
async function untilProcessed<T>(chunk: T[], send: (pending: T[]) => Promise<T[]>, what: string): Promise<void> {
  let pending = chunk;
  await retry(
    async () => {
      pending = await send(pending);
      if (pending.length) throw new Unprocessed(`${what} left ${pending.length} unprocessed after ${MAX_ROUNDS} calls`);
    },
    { isRetryable: (error) => error instanceof Unprocessed, maxAttempts: MAX_ROUNDS, pauseMs: 50 },
  );
}

type Item = Record<string, unknown>;

/** The identity of a key, for maps of items by key. */
export const keyId = (key: ItemKey): string => `${key.pk}\u0000${key.sk}`;

/** The items at `keys` by keyId (missing ones absent); equal keys are asked for once. */
export async function batchGet(keys: readonly ItemKey[], options: { consistent?: boolean } = {}): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  const distinct = [...new Map(keys.map((key) => [keyId(key), { pk: key.pk, sk: key.sk }])).values()];
  const table = tableName();
  for (let start = 0; start < distinct.length; start += BATCH_GET_SIZE) {
    await untilProcessed(
      distinct.slice(start, start + BATCH_GET_SIZE),
      async (pending) => {
        const result: BatchGetCommandOutput = await dynamo().send(
          new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent } } }),
        );
        for (const item of result.Responses?.[table] ?? []) found.set(keyId({ pk: String(item.pk), sk: String(item.sk) }), item);
        return (result.UnprocessedKeys?.[table]?.Keys ?? []) as ItemKey[];
      },
      'BatchGetItem',
    );
  }
  return found;
}
type Request = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: ItemKey } };

const writeChunk = (chunk: Request[]): Promise<void> =>
  untilProcessed(
    chunk,
    async (pending) => {
      const result = await dynamo().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
      return (result.UnprocessedItems?.[tableName()] ?? []) as Request[];
    },
    'BatchWriteItem',
  );

/** Writes all requests, `concurrency` chunks at a time; rejects on the first chunk that cannot be written. */
export async function batchWriteAll(requests: Request[], concurrency = 8): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < requests.length && !failed) {
      const start = next;
      next += BATCH_WRITE_SIZE;
      try {
        await writeChunk(requests.slice(start, start + BATCH_WRITE_SIZE));
      } catch (error) {
        failed = true; // the other workers stop taking chunks
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.ceil(requests.length / BATCH_WRITE_SIZE)) }, worker));
}

export const putRequest = (item: Record<string, unknown>): Request => ({ PutRequest: { Item: item } });
export const deleteRequest = (key: ItemKey): Request => ({ DeleteRequest: { Key: key } });

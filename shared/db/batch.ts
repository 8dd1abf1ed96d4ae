/**
 * Batched reads and writes: BatchGetItem (100 keys a call) and BatchWriteItem (25 items a call),
 * each asking again for what DynamoDB left unprocessed (it does when it throttles), with growing
 * pauses. Reads are the one `UnprocessedKeys` loop of the code.
 *
 * Bulk writes outside transactions (large price tables): BatchWriteItem in chunks of 25 — the
 * service maximum — with several chunks in flight, and unprocessed items retried with growing
 * pauses (they come back when DynamoDB throttles). Not atomic: callers make the result visible
 * with one conditional write afterwards (see shared/legacy-products/prices.ts).
 */
import { BatchGetCommand, BatchWriteCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import type { ItemKey } from './keys';
import { tableName } from './table';

export const BATCH_WRITE_SIZE = 25;
/** BatchGetItem's limit per call. */
export const BATCH_GET_SIZE = 100;
/** Unprocessed keys are asked for again this many times, with a growing pause. */
const MAX_GET_ROUNDS = 8;

type Item = Record<string, unknown>;

/** The identity of a key, for maps of items by key. */
export const keyId = (key: ItemKey): string => `${key.pk}\u0000${key.sk}`;

/** The items at `keys` by keyId (missing ones absent); equal keys are asked for once. */
export async function batchGet(keys: readonly ItemKey[], options: { consistent?: boolean } = {}): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  const distinct = [...new Map(keys.map((key) => [keyId(key), { pk: key.pk, sk: key.sk }])).values()];
  for (let start = 0; start < distinct.length; start += BATCH_GET_SIZE) {
    let pending: Record<string, unknown>[] | undefined = distinct.slice(start, start + BATCH_GET_SIZE);
    for (let round = 0; pending?.length; round++) {
      if (round >= MAX_GET_ROUNDS) throw new Error(`BatchGetItem left ${pending.length} key(s) unprocessed after ${MAX_GET_ROUNDS} rounds`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** round)));
      const table = tableName();
      const result: BatchGetCommandOutput = await dynamo().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: options.consistent } } }),
      );
      for (const item of result.Responses?.[table] ?? []) found.set(keyId({ pk: String(item.pk), sk: String(item.sk) }), item);
      pending = result.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return found;
}
const MAX_ROUNDS = 12;

type Request = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: ItemKey } };

async function writeChunk(chunk: Request[]): Promise<void> {
  let pending: Request[] = chunk;
  for (let round = 0; pending.length > 0; round++) {
    if (round >= MAX_ROUNDS) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed after ${MAX_ROUNDS} rounds`);
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 25 * 2 ** round) * (0.5 + Math.random())));
    const result = await dynamo().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }));
    pending = (result.UnprocessedItems?.[tableName()] ?? []) as Request[];
  }
}

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

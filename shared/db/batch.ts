/**
 * Bulk writes outside transactions (large price tables): BatchWriteItem in chunks of 25 — the
 * service maximum — with several chunks in flight, and unprocessed items retried with growing
 * pauses (they come back when DynamoDB throttles). Not atomic: callers make the result visible
 * with one conditional write afterwards (see shared/legacy-products/prices.ts).
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients/dynamodb';
import type { ItemKey } from './keys';
import { tableName } from './table';

export const BATCH_WRITE_SIZE = 25;
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

/**
 * Independent conditional writes, each answered "written" or "its condition did not hold".
 *
 * `writeConditionally` runs one group of items that belong together (one conditional Put or
 * Update, or several items in one transaction). `writeConditionallyBatched` runs many such
 * groups — the deliveries a stream batch creates, the attempts a queue batch records — in as few
 * TransactWriteItems calls as possible: on DynamoDB Local a call costs the caller about 0.5 ms of
 * CPU whatever it carries (signing, HTTP, parsing), so one call of 100 items instead of 100 calls
 * is most of a webhook delivery's cost there. Every group keeps its own conditions and gets the
 * answer it would get written alone: a combined transaction that is cancelled wrote nothing, and
 * its groups are then written one by one.
 *
 * On AWS a transactional write costs two write units per item instead of one: the price of the
 * fewer calls (docs/performance.md has the arithmetic).
 */
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import type { ItemKey } from './keys';
import { isConditionFailure, isTransactionCanceled, type TransactItem } from './table';
import { transactWrite } from './transactions';

/** TransactWriteItems' limit. */
export const MAX_TRANSACTION_ITEMS = 100;

/** One item on its own: the single-item call (one write unit), not a transaction of one. */
function sendSingle(item: TransactItem): Promise<unknown> {
  if (item.Put) return dynamo().send(new PutCommand(item.Put as never));
  if (item.Update) return dynamo().send(new UpdateCommand(item.Update as never));
  if (item.Delete) return dynamo().send(new DeleteCommand(item.Delete as never));
  throw new Error('writeConditionally: a lone ConditionCheck writes nothing');
}

/** Writes one group; false when one of its conditions did not hold (then nothing was written). */
export async function writeConditionally(items: TransactItem[]): Promise<boolean> {
  try {
    if (items.length === 1) await sendSingle(items[0]!);
    else await transactWrite(items);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    if (isTransactionCanceled(error) && (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed'))
      return false;
    throw error;
  }
}

function itemKeyOf(item: TransactItem): string {
  const key = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as ItemKey | undefined;
  return `${key?.pk}\u0000${key?.sk}`;
}

/**
 * Groups packed into transactions of at most 100 items, in waves: a group that touches an item an
 * earlier group of the wave touches starts a new wave, written only after the wave before it, so
 * groups on the same item are written in their order (the first whose condition holds wins) and
 * never share a transaction. Within a wave the transactions run at once.
 */
function wavesOf(groups: TransactItem[][]): number[][][] {
  const waves: number[][][] = [];
  let wave: number[][] = [];
  let chunk: number[] = [];
  let size = 0;
  let keys = new Set<string>();
  const closeChunk = () => {
    if (chunk.length) wave.push(chunk);
    chunk = [];
    size = 0;
  };
  groups.forEach((group, index) => {
    const groupKeys = group.map(itemKeyOf);
    if (groupKeys.some((key) => keys.has(key))) {
      closeChunk();
      waves.push(wave);
      wave = [];
      keys = new Set();
    } else if (size + group.length > MAX_TRANSACTION_ITEMS) closeChunk();
    chunk.push(index);
    size += group.length;
    groupKeys.forEach((key) => keys.add(key));
  });
  closeChunk();
  if (wave.length) waves.push(wave);
  return waves;
}

/**
 * Writes every group, combined into transactions; answers in the order of `groups`. Throws only
 * for errors other than a condition not holding (the caller's batch is then retried whole, so
 * every group must be safe to write again — conditional on the state it expects).
 */
export async function writeConditionallyBatched(groups: TransactItem[][]): Promise<boolean[]> {
  const answers: boolean[] = groups.map(() => false);
  const writeChunk = async (indexes: number[]) => {
    const alone = () => Promise.all(indexes.map(async (index) => void (answers[index] = await writeConditionally(groups[index]!))));
    if (indexes.length === 1) return alone();
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: indexes.flatMap((index) => groups[index]!) }));
      indexes.forEach((index) => (answers[index] = true));
    } catch (error) {
      // A condition failed or another write touched one of the items: nothing was written.
      if (!isTransactionCanceled(error)) throw error;
      await alone();
    }
  };
  for (const wave of wavesOf(groups)) await Promise.all(wave.map(writeChunk));
  return answers;
}

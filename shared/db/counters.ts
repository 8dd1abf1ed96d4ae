/**
 * Counters: the one atomic increment (`ADD`) that hands out integer ids and human numbers. (A
 * list's total moves inside the create's or delete's own transaction: totals.ts.)
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys, type ItemKey, type SequenceName } from './keys';
import { VersionConflict } from '#shared/errors';
import { tableName, type TransactionPart } from './table';

/** Adds `by` (one) to the counter item at `key` (created at 0 on first use) and answers the new value. */
export async function incrementCounter(key: ItemKey, by = 1): Promise<number> {
  const result = await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'ADD #value :by',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':by': by },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}

/**
 * The next integer id of a tenant's sequence. A failed create afterwards leaves a gap, never a
 * duplicate.
 */
export const nextId = (tenant: Tenant, name: SequenceName): Promise<number> => incrementCounter(tenantKeys.sequence(tenant, name));

/**
 * `count` consecutive ids of a sequence with one call (the production jobs of an order's lines):
 * the sequence moves by `count`, and the ids are the ones it moved over.
 */
export async function reserveIds(tenant: Tenant, name: SequenceName, count: number): Promise<number[]> {
  if (count === 0) return [];
  const last = await incrementCounter(tenantKeys.sequence(tenant, name), count);
  return Array.from({ length: count }, (_, index) => last - count + 1 + index);
}

/**
 * Gap-free numbers by optimistic race, kept for writers not yet moved to the turns of gap-free.ts
 * (`commitInTurn`, which invoices and quotes use: under a burst, racing writers retry round after
 * round; queued ones commit one after the other). Both keep to the same item and condition, so the
 * two may run side by side during a deploy. A number is taken only by the transaction that writes its
 * document. `lastGapFree` reads the counter (strongly consistent); `takeGapFree` — a part of that
 * transaction — moves it from the value read to the next one, on condition that it still holds the
 * value read. Two writers that read the same value cannot both commit: the loser's transaction is
 * cancelled with nothing written (a VersionConflict: it reads again), and a transaction that fails
 * for any other reason leaves the counter as it was — no number is ever lost.
 */
export async function lastGapFree(key: ItemKey): Promise<number> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Number(result.Item?.value ?? 0);
}

export function takeGapFree(key: ItemKey, last: number, what: string): TransactionPart {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #value = :next',
        ConditionExpression: last === 0 ? 'attribute_not_exists(#value)' : '#value = :last',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: last === 0 ? { ':next': 1 } : { ':next': last + 1, ':last': last },
      },
    },
    onConditionFailure: () => new VersionConflict(what),
  };
}

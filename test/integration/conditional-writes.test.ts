/**
 * Batched conditional writes against DynamoDB Local: many groups in few transactions, each answered
 * as if it had been written alone.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dynamo } from '#shared/clients/dynamodb';
import { writeConditionally, writeConditionallyBatched } from '#shared/db/conditional-writes';
import { tableName, type TransactItem } from '#shared/db/table';
import { withCallCount } from '#test/support/store';

const prefix = () => `TEST#CONDITIONAL#${randomUUID()}`;
const createOnce = (pk: string, value: number): TransactItem[] => [
  { Put: { TableName: tableName(), Item: { pk, sk: 'ITEM', value }, ConditionExpression: 'attribute_not_exists(pk)' } },
];
const read = async (pk: string) =>
  (await dynamo().send(new GetCommand({ TableName: tableName(), Key: { pk, sk: 'ITEM' }, ConsistentRead: true }))).Item;

describe('batched conditional writes', () => {
  it('writes every group whose condition holds and answers false for the others, nothing else changed', async () => {
    const base = prefix();
    await dynamo().send(new PutCommand({ TableName: tableName(), Item: { pk: `${base}#1`, sk: 'ITEM', value: 'old' } }));
    const answers = await writeConditionallyBatched([0, 1, 2].map((index) => createOnce(`${base}#${index}`, index)));
    expect(answers).toEqual([true, false, true]);
    expect((await read(`${base}#0`))?.value).toBe(0);
    expect((await read(`${base}#1`))?.value).toBe('old');
    expect((await read(`${base}#2`))?.value).toBe(2);
  });

  it('packs 250 groups into three transactions when none fails', async () => {
    const base = prefix();
    const { result, calls } = await withCallCount(() =>
      writeConditionallyBatched(Array.from({ length: 250 }, (_, index) => createOnce(`${base}#${index}`, index))),
    );
    expect(result.every(Boolean)).toBe(true);
    expect(calls).toEqual({ TransactWriteItems: 3 });
    expect((await read(`${base}#249`))?.value).toBe(249);
  });

  it('writes two groups on one item in their order, never in one transaction', async () => {
    const base = prefix();
    const answers = await writeConditionallyBatched([createOnce(`${base}#same`, 1), createOnce(`${base}#same`, 2)]);
    expect(answers).toEqual([true, false]);
    expect((await read(`${base}#same`))?.value).toBe(1);
  });

  it('answers a single group with a single conditional write', async () => {
    const base = prefix();
    expect(await writeConditionally(createOnce(base, 1))).toBe(true);
    expect(await writeConditionally(createOnce(base, 2))).toBe(false);
    expect((await read(base))?.value).toBe(1);
  });
});

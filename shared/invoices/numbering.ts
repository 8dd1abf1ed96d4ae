/**
 * Invoice numbers, `INV-<year>-<n>` (n zero-padded to 6 digits), without gaps: tax law wants an
 * unbroken sequence, so a number is taken only by the transaction that writes its invoice. The
 * counter item of the tenant and year is read first (strongly consistent); the create's
 * transaction then sets it to the next value on condition that it still holds the value read. Two
 * creates that read the same value cannot both commit: the loser's transaction is cancelled with
 * nothing written, and it reads again (service.ts retries, with a jittered pause). A create that
 * fails for any other reason leaves the counter untouched, so no number is ever lost.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { invoiceKeys } from '#shared/db/keys';
import { tableName, type TransactionPart } from '#shared/db/table';
import { VersionConflict } from '#shared/errors';

export const formatInvoiceNumber = (year: number, sequence: number): string => `INV-${year}-${String(sequence).padStart(6, '0')}`;

/** The last number handed out in `year` (0 before the first). */
export async function lastInvoiceSequence(tenant: Tenant, year: number): Promise<number> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: invoiceKeys.numberSequence(tenant, year), ConsistentRead: true }),
  );
  return Number(result.Item?.value ?? 0);
}

/** Moves the year's counter from `last` to `last + 1`, only while it still holds `last`. */
export function takeInvoiceNumber(tenant: Tenant, year: number, last: number): TransactionPart {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: invoiceKeys.numberSequence(tenant, year),
        UpdateExpression: 'SET #value = :next',
        ConditionExpression: last === 0 ? 'attribute_not_exists(#value)' : '#value = :last',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: last === 0 ? { ':next': 1 } : { ':next': last + 1, ':last': last },
      },
    },
    onConditionFailure: () => new VersionConflict('invoice number'),
  };
}

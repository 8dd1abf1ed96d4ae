import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../clients/dynamodb';
import { config } from '../config';

export const tableName = (): string => config().tableName;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Maps the index of a cancelled transaction item to the domain error it means
 * (e.g. the email marker's condition failed → 409 email taken). Return undefined to fall through.
 */
export type ConditionFailureMap = (index: number, item: TransactItem) => Error | undefined;

/**
 * Runs one TransactWriteItems. When a condition fails, the first failing item is handed to
 * `onConditionFailure` so the caller turns it into a domain error; nothing was written.
 */
export async function transactWrite(items: TransactItem[], onConditionFailure?: ConditionFailureMap): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      // Another transaction touched the same items at the same moment: nothing was written, try again.
      if (attempt < 4 && isTransactionConflict(error)) {
        await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
        continue;
      }
      rethrowMapped(error, items, onConditionFailure);
    }
  }
}

const isTransactionConflict = (error: unknown): boolean =>
  isTransactionCanceled(error) &&
  (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict') &&
  !(error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed');

function rethrowMapped(error: unknown, items: TransactItem[], onConditionFailure?: ConditionFailureMap): never {
  if (isTransactionCanceled(error) && onConditionFailure) {
    const reasons = error.CancellationReasons ?? [];
    for (let index = 0; index < reasons.length; index++) {
      if (reasons[index]?.Code === 'ConditionalCheckFailed') {
        const mapped = onConditionFailure(index, items[index]!);
        if (mapped) throw mapped;
      }
    }
  }
  throw error;
}

/**
 * A cancelled transaction, recognised by name: importing the exception class would pull every
 * DynamoDB error class into each bundle for one `instanceof`.
 */
export const isTransactionCanceled = (error: unknown): error is TransactionCanceledException =>
  error instanceof Error && error.name === 'TransactionCanceledException';

/** True for the SDK's conditional-check failure of a single-item write. */
export const isConditionFailure = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

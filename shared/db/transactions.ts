import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { retry } from '#shared/async/retry';
import { dynamo } from '#shared/clients/dynamodb';
import { VersionConflict } from '#shared/errors';
import { isTransactionCanceled, isTransactionConflict, type TransactItem, type TransactionPart } from './table';

/** Attempts of one transaction that other transactions cancelled (TransactionConflict, no condition failed). */
export const TRANSACTION_ATTEMPTS = 3;

const isPart = (entry: TransactItem | TransactionPart): entry is TransactionPart => 'item' in entry;

/**
 * Runs one TransactWriteItems. A transaction cancelled only because another one touched the same
 * items at the same moment wrote nothing and is sent again (TRANSACTION_ATTEMPTS in all; then a
 * VersionConflict: the caller's optimistic loop reads again, or the caller gets a 409). When a
 * condition fails, the first failing part's error is thrown; nothing was written.
 */
export async function transactWrite(entries: (TransactItem | TransactionPart)[]): Promise<void> {
  const items = entries.map((entry) => (isPart(entry) ? entry.item : entry));
  try {
    await retry(() => dynamo().send(new TransactWriteCommand({ TransactItems: items })), {
      isRetryable: isTransactionConflict,
      maxAttempts: TRANSACTION_ATTEMPTS,
      pauseMs: 40,
      exhausted: () => new VersionConflict('transaction'),
    });
  } catch (error) {
    if (isTransactionCanceled(error)) {
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((reason, index) => reason?.Code === 'ConditionalCheckFailed' && isPart(entries[index]!));
      if (failed >= 0) throw (entries[failed] as TransactionPart).onConditionFailure();
    }
    throw error;
  }
}

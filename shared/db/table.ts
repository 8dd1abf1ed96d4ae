/**
 * The table's name, the shape of transaction items, and how DynamoDB's failures are recognised.
 * No client here: item builders (every resource's stored.ts) import this module, and the bundles
 * that only build schemas (the OpenAPI document) must not carry the DynamoDB client.
 */
import type { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';

export const tableName = (): string => config().tableName;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * An item of a transaction with what a failed condition on it means (e.g. the email marker's
 * condition → 409 email taken; the order's version condition → VersionConflict). A plain
 * TransactItem carries no meaning: its failed condition is rethrown as the SDK's error.
 */
export interface TransactionPart {
  item: TransactItem;
  onConditionFailure: () => Error;
}

/** Cancelled only because other transactions touched the same items (no condition failed): safe to send again. */
export const isTransactionConflict = (error: unknown): boolean =>
  isTransactionCanceled(error) &&
  (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict') &&
  !(error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed');

/**
 * A cancelled transaction, recognised by name: importing the exception class would pull every
 * DynamoDB error class into each bundle for one `instanceof`.
 */
export const isTransactionCanceled = (error: unknown): error is TransactionCanceledException =>
  error instanceof Error && error.name === 'TransactionCanceledException';

/** True for the SDK's conditional-check failure of a single-item write. */
export const isConditionFailure = (error: unknown): boolean => error instanceof Error && error.name === 'ConditionalCheckFailedException';

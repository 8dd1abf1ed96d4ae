/**
 * Credit notes in the single table (keys: shared/db/keys.ts `creditNoteKeys`). Reads and the list
 * here; every write is one TransactWriteItems assembled from stored.ts's builders and the invoice's
 * part (shared/invoices/credits.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { readTotal, readWindow, type PageRequest, type Total } from '#shared/db/collections';
import { createdSortKey, creditNoteKeys, cursorKeys } from '#shared/db/keys';
import { tableName, type TransactionPart } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { NotFoundError, VersionConflict } from '#shared/errors';
import { CREDIT_NOTES, creditNoteFromItem, creditNoteUpdate, type CreditNoteRecord } from './stored';

export async function readCreditNote(tenant: Tenant, id: number, consistent = false): Promise<CreditNoteRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: creditNoteKeys.creditNote(tenant, id), ConsistentRead: consistent }),
  );
  return result.Item ? creditNoteFromItem(result.Item) : undefined;
}

export async function requireCreditNote(tenant: Tenant, id: number, consistent = false): Promise<CreditNoteRecord> {
  const note = await readCreditNote(tenant, id, consistent);
  if (!note) throw new NotFoundError('credit note', id);
  return note;
}

/** Writes a refund: the credit note from `before` to `after` (conditional on the version read) with the invoice's part. */
export async function saveRefund(
  tenant: Tenant,
  before: CreditNoteRecord,
  after: CreditNoteRecord,
  invoicePart: TransactionPart[],
): Promise<void> {
  await transactWrite([
    { item: creditNoteUpdate(tenant, before, after), onConditionFailure: () => new VersionConflict('credit note') },
    ...invoicePart,
  ]);
}

/** A page of all credit notes, newest first (after `after`, the cursor's credit note, when given); the total from the counter. */
export async function listCreditNotes(
  tenant: Tenant,
  page: PageRequest & { after?: CreditNoteRecord },
): Promise<{ items: CreditNoteRecord[]; hasMore: boolean } & Total> {
  const query = { index: 'gsi1' as const, partition: creditNoteKeys.collection(tenant), newestFirst: true };
  const { after } = page;
  const startAfter = after && cursorKeys.creditNote(tenant, after.id, { ...query, sortKey: createdSortKey(after.created_at, after.id) });
  const [window, total] = await Promise.all([
    readWindow(query, { perPage: page.perPage, offset: (page.page - 1) * page.perPage, startAfter }),
    readTotal(tenant, CREDIT_NOTES),
  ]);
  return { items: window.items.map(creditNoteFromItem), hasMore: window.hasMore, total, capped: false };
}

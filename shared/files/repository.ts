/**
 * File records in the table (stored.ts). A change puts the whole item on condition of the version
 * it read (its index sort keys carry the status), so two requests that complete or delete one
 * file cannot both win. The file worker's own writes (its mark, the preflight result) are updates
 * on condition of the version it read.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { countCollectionUpTo, getMany, readWindow, type CollectionQuery, type PageRequest, type Total } from '#shared/db/collections';
import { cursorKeys, fileKeys } from '#shared/db/keys';
import { isConditionFailure, tableName } from '#shared/db/table';
import { NotFoundError, VersionConflict } from '#shared/errors';
import type { QuotaUse, UploadQuota } from './quota';
import { fileFromItem, fileIdOfSortKey, fileItem, fileSortKey, sortKeyFacets, type FileRecord, type Preflight } from './stored';

export async function insertFile(tenant: Tenant, record: FileRecord): Promise<void> {
  await dynamo().send(
    new PutCommand({ TableName: tableName(), Item: fileItem(tenant, record), ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

export async function readFile(tenant: Tenant, id: number, consistent = false): Promise<FileRecord | undefined> {
  const item = (await dynamo().send(new GetCommand({ TableName: tableName(), Key: fileKeys.file(tenant, id), ConsistentRead: consistent })))
    .Item;
  return item ? fileFromItem(item) : undefined;
}

export async function requireFile(tenant: Tenant, id: number, consistent = false): Promise<FileRecord> {
  const file = await readFile(tenant, id, consistent);
  if (!file) throw new NotFoundError('file', id);
  return file;
}

/** The tenant's files with these ids (one BatchGetItem per 100), by id; unknown ids are absent. */
export async function readFiles(tenant: Tenant, ids: readonly number[]): Promise<Map<number, FileRecord>> {
  const items = await getMany([...new Set(ids)].map((id) => fileKeys.file(tenant, id)));
  return new Map(items.map(fileFromItem).map((file) => [file.id, file]));
}

/** Writes `after` on condition that the stored file is still at `before`'s version. */
export async function saveFile(tenant: Tenant, before: FileRecord, after: FileRecord): Promise<void> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: fileItem(tenant, after),
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': before.version },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new VersionConflict('file');
    throw error;
  }
}

export async function deleteFileRecord(tenant: Tenant, file: FileRecord): Promise<void> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: fileKeys.file(tenant, file.id),
        ConditionExpression: 'version = :version',
        ExpressionAttributeValues: { ':version': file.version },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new VersionConflict('file');
    throw error;
  }
}

/**
 * The file worker's result (preflight/worker.ts): `preflight` recorded and the worker's mark
 * removed, on condition that the file is still at the version read and still ready; false when it
 * changed meanwhile (the change's own stream record takes over).
 */
export async function savePreflight(tenant: Tenant, file: FileRecord, preflight: Preflight, now: Date): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: fileKeys.file(tenant, file.id),
        UpdateExpression: 'SET preflight = :preflight, updated_at = :now, version = :next REMOVE worker_started_at',
        ConditionExpression: 'version = :version AND #status = :ready',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':preflight': preflight,
          ':now': now.toISOString(),
          ':next': file.version + 1,
          ':version': file.version,
          ':ready': 'ready',
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Marks the file worker's start on the file (`worker_started_at`; the version stays, so the
 * result's write still holds on to the version read); false when the file changed or another
 * attempt marked it.
 */
export async function markWorkerStarted(tenant: Tenant, file: FileRecord, now: Date): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: fileKeys.file(tenant, file.id),
        UpdateExpression: 'SET worker_started_at = :now',
        ConditionExpression: 'version = :version AND attribute_not_exists(worker_started_at)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':version': file.version },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Removes the file worker's mark, on condition that the file is still at the version read. */
export async function clearWorkerStarted(tenant: Tenant, file: FileRecord): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: fileKeys.file(tenant, file.id),
      UpdateExpression: 'REMOVE worker_started_at',
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': file.version },
    }),
  );
}

export interface FileFilter {
  orderId?: number;
  purpose?: string;
  status?: string;
  /** Only the files this customer uploaded (a customer token lists its own). */
  customerId?: number;
}

/** A list request: a page number, or the files after `after` (a cursor: the file named by `starting_after`). */
export interface FilePageRequest extends PageRequest {
  after?: FileRecord;
}

/**
 * A page of files, newest first: the tenant's (gsi1) or one order's (gsi2). Purpose, status and
 * the uploading customer are read off the index sort keys, so filtering reads key records only
 * (at most MAX_EXAMINED per request) and fetches just the page's items. A cursor starts the Query
 * after the cursor file's place (its creation). `next`: the id of the file the next page starts
 * after — the page's last, or the last one examined when a filter stopped the page short.
 */
export async function listFiles(
  tenant: Tenant,
  filter: FileFilter,
  page: FilePageRequest,
): Promise<{ items: FileRecord[]; hasMore: boolean; next: number | undefined } & Total> {
  const query: CollectionQuery =
    filter.orderId !== undefined
      ? { index: 'gsi2', partition: fileKeys.orderFiles(tenant, filter.orderId), newestFirst: true }
      : { index: 'gsi1', partition: fileKeys.filesCollection(tenant), newestFirst: true };
  const filtered = filter.purpose !== undefined || filter.status !== undefined || filter.customerId !== undefined;
  const keep = !filtered
    ? undefined
    : (entry: Record<string, unknown>) => {
        const facets = sortKeyFacets(String(entry[`${query.index}sk`] ?? ''));
        return (
          (filter.purpose === undefined || facets.purpose === filter.purpose) &&
          (filter.status === undefined || facets.status === filter.status) &&
          (filter.customerId === undefined || facets.customer === String(filter.customerId))
        );
      };
  const { after } = page;
  const startAfter =
    after && cursorKeys.file(tenant, after.id, { index: query.index, partition: query.partition, sortKey: fileSortKey(after) });
  const [window, total] = await Promise.all([
    readWindow(query, { perPage: page.perPage, offset: (page.page - 1) * page.perPage, startAfter, ...(keep ? { keep } : {}) }),
    countCollectionUpTo(query, undefined, keep),
  ]);
  const next = window.next && fileIdOfSortKey(String(window.next[`${query.index}sk`]));
  return { items: window.items.map(fileFromItem), hasMore: window.hasMore, next, ...total };
}

/**
 * Counts one upload of `bytes` on the tenant's counter of `day`, on condition that the day's files
 * stay under the quota's and its bytes within it — one conditional ADD, so uploads that race get
 * exactly what is left. Undefined when it was counted; else the day's use as it stood (nothing counted).
 */
export async function reserveUpload(
  tenant: Tenant,
  day: string,
  bytes: number,
  quota: UploadQuota,
  expiresAt: number,
): Promise<QuotaUse | undefined> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: fileKeys.uploadQuota(tenant, day, quota.customerId),
        UpdateExpression: 'ADD files :one, bytes :bytes SET expires_at = :expires',
        ConditionExpression:
          ':bytes <= :quotaBytes AND (attribute_not_exists(files) OR files < :files) AND (attribute_not_exists(bytes) OR bytes <= :room)',
        ExpressionAttributeValues: {
          ':one': 1,
          ':bytes': bytes,
          ':expires': expiresAt,
          ':files': quota.files,
          ':quotaBytes': quota.bytes,
          ':room': quota.bytes - bytes,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const raw = (error as { Item?: Record<string, never> }).Item;
    const item = raw ? unmarshall(raw) : {};
    return { files: Number(item.files ?? 0), bytes: Number(item.bytes ?? 0) };
  }
}

/** Gives an upload's count back (it was counted, then failed before it was stored); `customerId`: on that customer's counter. */
export async function releaseUpload(tenant: Tenant, day: string, bytes: number, customerId?: number): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: fileKeys.uploadQuota(tenant, day, customerId),
      UpdateExpression: 'ADD files :minusOne, bytes :minusBytes',
      ConditionExpression: 'attribute_exists(files)',
      ExpressionAttributeValues: { ':minusOne': -1, ':minusBytes': -bytes },
    }),
  );
}

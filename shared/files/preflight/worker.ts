/**
 * The preflight worker's work (functions/files/preflight.ts is its entry point): for each stream
 * record of a ready file whose preflight is `pending` (the worker table's filter pattern lets only
 * those through), read the file again, read its object from the files bucket, run the checks
 * (checks.ts) and record the result on condition of the version read.
 *
 * Idempotent: a replayed record finds the preflight no longer pending (or the file gone) and does
 * nothing; a write that loses to another change of the file leaves it to the record that change
 * made. A failure to read or write throws, so the stream mapping retries the record (shared/workers.ts);
 * the file stays `ready` and usable meanwhile, whatever happens to its preflight.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { fileKeys } from '#shared/db/keys';
import { isConditionFailure, tableName } from '#shared/db/table';
import { logger } from '#shared/logger';
import { PREFLIGHT_MAX_BYTES } from '#shared/files/limits';
import { readObject } from '#shared/files/objects';
import { readFile } from '#shared/files/repository';
import type { FileRecord, Preflight } from '#shared/files/stored';
import { isChecked, notCheckedPreflight, preflightOf } from './checks';

/** The tenant and file id of a FILE item's key (`T#<account>#<mode>#FILE#<id>`), or undefined for any other key. */
export function fileOfKey(pk: unknown): { tenant: Tenant; id: number } | undefined {
  const match = typeof pk === 'string' ? /^T#([^#]+)#(live|test)#FILE#(\d+)$/.exec(pk) : null;
  return match ? { tenant: { accountId: match[1]!, mode: match[2] as Tenant['mode'] }, id: Number(match[3]) } : undefined;
}

/** A ready file whose preflight has not run yet. */
export const awaitsPreflight = (file: FileRecord | undefined): file is FileRecord =>
  file?.status === 'ready' && file.preflight?.status === 'pending' && file.content_type !== null;

/**
 * Records `preflight` on the file, on condition that it is still at the version read and still
 * ready; false when it changed meanwhile (the change's own stream record takes over).
 */
export async function savePreflight(tenant: Tenant, file: FileRecord, preflight: Preflight, now: Date): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: fileKeys.file(tenant, file.id),
        UpdateExpression: 'SET preflight = :preflight, updated_at = :now, version = :next',
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

export type PreflightOutcome = 'checked' | 'not-pending' | 'changed' | 'not-a-file';

/** The preflight of the file one stream record names (read fresh: the record may be a replay). */
export async function preflightRecord(record: DynamoDBRecord, now = () => new Date()): Promise<PreflightOutcome> {
  const key = fileOfKey(record.dynamodb?.Keys?.pk?.S);
  if (!key) return 'not-a-file';
  const file = await readFile(key.tenant, key.id, true);
  if (!awaitsPreflight(file)) return 'not-pending';
  const type = file.content_type!;
  const started = Date.now();
  let preflight: Preflight;
  if (!isChecked(type)) preflight = { ...notCheckedPreflight(type), checked_at: now().toISOString() };
  else if (file.size > PREFLIGHT_MAX_BYTES) {
    // Marked skipped when it became ready; a file larger than that is never read whole here.
    preflight = {
      ...notCheckedPreflight(type),
      checks: [{ code: 'size', result: 'warning', message: `Not checked: larger than ${PREFLIGHT_MAX_BYTES / 1024 / 1024} MB` }],
      checked_at: now().toISOString(),
    };
  } else preflight = await preflightOf(type, await readObject(fileKeys.object(key.tenant, key.id)), now());
  const saved = await savePreflight(key.tenant, file, preflight, now());
  logger.info('file preflight', {
    account_id: key.tenant.accountId,
    mode: key.tenant.mode,
    file_id: file.id,
    content_type: type,
    size: file.size,
    status: preflight.status,
    ms: Date.now() - started,
    saved,
  });
  return saved ? 'checked' : 'changed';
}

/** A stream batch, one record after another (each file is read whole: one at a time bounds the memory). */
export async function preflightRecords(records: readonly DynamoDBRecord[]): Promise<PreflightOutcome[]> {
  const outcomes: PreflightOutcome[] = [];
  for (const record of records) outcomes.push(await preflightRecord(record));
  return outcomes;
}

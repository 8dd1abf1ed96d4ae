/**
 * The file worker's work (functions/files/preflight.ts is its entry point), for each stream record
 * of a file with work for it (the worker table's filter pattern lets only those through), read
 * again:
 *
 * - a large presigned upload its completion handed over (`processing`, preflight pending): its
 *   SHA-256 verified by streaming the object (or S3's checksum), the object moved to its final key
 *   and the file `ready` (arrival.ts) — or `rejected` when the checksum is not the declared one;
 * - a ready file whose preflight is `pending`: its object read, the checks run (checks.ts) and the
 *   result recorded on condition of the version read.
 *
 * Idempotent: a replayed record finds the work done (or the file gone) and does nothing; a write
 * that loses to another change of the file leaves it to the record that change made.
 *
 * A file never holds up the stream (docs/files.md#the-worker): a file that cannot be checked gets a
 * failed or skipped result with the reason — the checks are bounded (bounds.ts), and one that throws
 * all the same is recorded failed. Before the work the worker marks the file (`worker_started_at`),
 * and removes the mark with the result; if it stops on a file without a result (out of time or
 * memory), the mapping retries the record, which finds the mark and records the file as not checked
 * (a preflight `skipped`, an upload `rejected`) instead of trying again: one failure, then set aside.
 * Only S3 or DynamoDB failing throws (the mark removed first), so that the record is retried.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { Tenant } from '#shared/auth/principal';
import { fileKeys } from '#shared/db/keys';
import { VersionConflict } from '#shared/errors';
import { logger } from '#shared/logger';
import type { FileType } from '#shared/files/detect';
import { finishUpload, handedToWorker, rejectUpload } from '#shared/files/arrival';
import { PREFLIGHT_MAX_BYTES } from '#shared/files/limits';
import { headObject, readObjectIfPresent } from '#shared/files/objects';
import { clearWorkerStarted, markWorkerStarted, readFile, savePreflight } from '#shared/files/repository';
import type { FileRecord, Preflight } from '#shared/files/stored';
import { isChecked, notCheckedPreflight, preflightOf, unfinishedPreflight } from './checks';

/** The tenant and file id of a FILE item's key (`T#<account>#<mode>#FILE#<id>`), or undefined for any other key. */
export function fileOfKey(pk: unknown): { tenant: Tenant; id: number } | undefined {
  const match = typeof pk === 'string' ? /^T#([^#]+)#(live|test)#FILE#(\d+)$/.exec(pk) : null;
  return match ? { tenant: { accountId: match[1]!, mode: match[2] as Tenant['mode'] }, id: Number(match[3]) } : undefined;
}

/** A ready file whose preflight has not run yet. */
export const awaitsPreflight = (file: FileRecord | undefined): file is FileRecord =>
  file?.status === 'ready' && file.preflight?.status === 'pending' && file.content_type !== null;

/** A large upload whose completion handed it to the worker to verify. */
export const awaitsVerification = (file: FileRecord | undefined): file is FileRecord =>
  file !== undefined && handedToWorker(file) && file.content_type !== null;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);

/**
 * The checks of a file's bytes (`check`: preflightOf), recorded as failed — with what it said —
 * when they throw all the same: a file must end with a result, whatever the readers do with it.
 */
export async function runCheck(type: FileType, bytes: Uint8Array, at: Date, check: typeof preflightOf = preflightOf): Promise<Preflight> {
  try {
    return await check(type, bytes, at);
  } catch (error) {
    logger.error('preflight check threw', error as Error);
    return { ...unfinishedPreflight('failed', `The file could not be checked: ${messageOf(error)}`), checked_at: at.toISOString() };
  }
}

export type PreflightOutcome = 'checked' | 'verified' | 'rejected' | 'gave-up' | 'not-pending' | 'changed' | 'not-a-file';

export interface WorkerOptions {
  now?: () => Date;
  /** The checks of a file's bytes (tests give one that throws). */
  check?: typeof preflightOf;
}

/** The preflight of a ready file: its bytes read (when its type is checked and it is not too large) and checked. */
async function preflight(tenant: Tenant, file: FileRecord, now: () => Date, check: typeof preflightOf): Promise<PreflightOutcome> {
  const type = file.content_type!;
  const started = Date.now();
  let result: Preflight;
  if (!isChecked(type)) result = { ...notCheckedPreflight(type), checked_at: now().toISOString() };
  else if (file.size > PREFLIGHT_MAX_BYTES) {
    // Marked skipped when it became ready; a file larger than that is never read whole here.
    result = {
      ...notCheckedPreflight(type),
      checks: [{ code: 'size', result: 'warning', message: `Not checked: larger than ${PREFLIGHT_MAX_BYTES / 1024 / 1024} MB` }],
      checked_at: now().toISOString(),
    };
  } else {
    const bytes = await readObjectIfPresent(fileKeys.object(tenant, file.id));
    result =
      bytes === undefined
        ? { ...unfinishedPreflight('failed', "The file's object is missing from the files bucket"), checked_at: now().toISOString() }
        : await runCheck(type, bytes, now(), check);
  }
  const saved = await savePreflight(tenant, file, result, now());
  logger.info('file preflight', {
    account_id: tenant.accountId,
    mode: tenant.mode,
    file_id: file.id,
    content_type: type,
    size: file.size,
    status: result.status,
    ms: Date.now() - started,
    saved,
  });
  return saved ? 'checked' : 'changed';
}

/** A large upload verified (arrival.ts): ready, or rejected when its SHA-256 is not the declared one or its object is gone. */
async function verify(tenant: Tenant, file: FileRecord, now: () => Date): Promise<PreflightOutcome> {
  const started = Date.now();
  const head = await headObject(fileKeys.pendingObject(tenant, file.id));
  let outcome: PreflightOutcome;
  try {
    if (!head) {
      await rejectUpload(tenant, file, 'The upload is gone from the bucket: upload the file again', now());
      outcome = 'rejected';
    } else {
      const arrival = await finishUpload(tenant, file, head.sha256, now());
      if ('mismatch' in arrival) {
        await rejectUpload(
          tenant,
          file,
          `The upload's SHA-256 is ${arrival.mismatch}, ${file.sha256} was declared: upload it again`,
          now(),
        );
        outcome = 'rejected';
      } else outcome = 'verified';
    }
  } catch (error) {
    if (error instanceof VersionConflict) return 'changed';
    throw error;
  }
  logger.info('file upload verified', {
    account_id: tenant.accountId,
    mode: tenant.mode,
    file_id: file.id,
    size: file.size,
    outcome,
    ms: Date.now() - started,
  });
  return outcome;
}

/** The worker stopped on this file before (its mark is there, no result): recorded as not checked, not tried again. */
async function giveUp(tenant: Tenant, file: FileRecord, now: Date): Promise<PreflightOutcome> {
  const stopped = `the worker stopped on it without a result (out of time or memory), started ${file.worker_started_at}`;
  logger.error('file worker gave up on a file it stopped on', {
    account_id: tenant.accountId,
    mode: tenant.mode,
    file_id: file.id,
    size: file.size,
  });
  if (file.status === 'processing') {
    try {
      await rejectUpload(tenant, file, `The upload could not be verified: ${stopped}; upload it again`, now);
      return 'gave-up';
    } catch (error) {
      if (error instanceof VersionConflict) return 'changed';
      throw error;
    }
  }
  const result = {
    ...unfinishedPreflight(
      'skipped',
      `Not checked: the check stopped without a result (out of time or memory), started ${file.worker_started_at}; it is not tried again`,
    ),
    checked_at: now.toISOString(),
  };
  return (await savePreflight(tenant, file, result, now)) ? 'gave-up' : 'changed';
}

/** The work on the file one stream record names (read fresh: the record may be a replay or a retry). */
export async function preflightRecord(record: DynamoDBRecord, options: WorkerOptions = {}): Promise<PreflightOutcome> {
  const now = options.now ?? (() => new Date());
  const key = fileOfKey(record.dynamodb?.Keys?.pk?.S);
  if (!key) return 'not-a-file';
  const file = await readFile(key.tenant, key.id, true);
  const work = awaitsVerification(file) ? verify : awaitsPreflight(file) ? preflight : undefined;
  if (!file || !work) return 'not-pending';
  if (file.worker_started_at) return giveUp(key.tenant, file, now());
  if (!(await markWorkerStarted(key.tenant, file, now()))) return 'changed';
  try {
    return await work(key.tenant, file, now, options.check ?? preflightOf);
  } catch (error) {
    // S3 or DynamoDB failed, not the file: without the mark, the record's retry does the work again.
    await clearWorkerStarted(key.tenant, file).catch(() => undefined);
    throw error;
  }
}

/** A stream batch, one record after another (each file is read whole: one at a time bounds the memory). */
export async function preflightRecords(records: readonly DynamoDBRecord[]): Promise<PreflightOutcome[]> {
  const outcomes: PreflightOutcome[] = [];
  for (const record of records) outcomes.push(await preflightRecord(record));
  return outcomes;
}

/**
 * A presigned upload's arrival, after its completion found the object there, of its declared size
 * and type (service.ts): its SHA-256 verified — S3's checksum when the upload carried one, else the
 * object streamed through the hash — then the object moved to its final key and the file `ready`
 * with the preflight it starts with. The completion does this itself for an upload of up to
 * SYNC_COMPLETE_MAX_BYTES and hands a larger one to the file worker (preflight/worker.ts), which
 * does the same off the request path; both go through here. No module of other resources: the
 * worker's bundle carries it.
 */
import type { Tenant } from '#shared/auth/principal';
import { fileKeys } from '#shared/db/keys';
import { VersionConflict } from '#shared/errors';
import { PREFLIGHT_MAX_BYTES } from './limits';
import * as objects from './objects';
import * as repo from './repository';
import type { FileRecord, Preflight } from './stored';

/** A preflight still to come: a ready file's, or a large upload's the worker verifies first. */
export const pendingPreflight = (): Preflight => initialPreflight(0);

/** The preflight a ready file starts with: pending, or skipped above the size the check reads. */
export function initialPreflight(size: number): Preflight {
  const skipped = size > PREFLIGHT_MAX_BYTES;
  return {
    status: skipped ? 'skipped' : 'pending',
    checks: skipped
      ? [{ code: 'size', result: 'warning', message: `Not checked: larger than ${PREFLIGHT_MAX_BYTES / 1024 / 1024} MB` }]
      : [],
    pages: null,
    page_sizes: [],
    encrypted: null,
    width_px: null,
    height_px: null,
    dpi: null,
    checked_at: null,
  };
}

/**
 * A large upload handed to the file worker: `processing`, its preflight pending (what the worker's
 * stream filter looks for), verified and moved off the request path.
 */
export const handedToWorker = (file: Pick<FileRecord, 'status' | 'preflight'>): boolean =>
  file.status === 'processing' && file.preflight !== null;

export type Arrival = { ready: FileRecord } | { mismatch: string };

/**
 * Verifies the arrived object's SHA-256 (`checksum`: S3's, when it has one) against the declared
 * one, then copies it to its final key and saves the file ready, on condition of `held`'s version
 * (VersionConflict otherwise); the pending object goes. A mismatch changes nothing: the caller
 * refuses the upload.
 */
export async function finishUpload(tenant: Tenant, held: FileRecord, checksum: string | undefined, now: Date): Promise<Arrival> {
  const pending = fileKeys.pendingObject(tenant, held.id);
  const sha256 = checksum ?? (await objects.hashObject(pending));
  if (held.sha256 && sha256 !== held.sha256) return { mismatch: sha256 };
  const final = fileKeys.object(tenant, held.id);
  await objects.copyObject(pending, final, held.content_type!);
  const ready: FileRecord = {
    ...held,
    status: 'ready',
    sha256,
    preflight: initialPreflight(held.size),
    worker_started_at: null,
    updated_at: now.toISOString(),
    version: held.version + 1,
  };
  try {
    await repo.saveFile(tenant, held, ready);
  } catch (error) {
    // Deleted meanwhile (the only change a file being verified can see): the copy must not outlive its record.
    if (error instanceof VersionConflict && !(await repo.readFile(tenant, held.id, true))) {
      await objects.deleteObject(final).catch(() => undefined);
    }
    throw error;
  }
  await objects.deleteObject(pending).catch(() => undefined);
  return { ready };
}

/** The upload refused for good: the file `rejected` with the reason, its pending object removed. */
export async function rejectUpload(tenant: Tenant, held: FileRecord, rejection: string, now: Date): Promise<FileRecord> {
  const rejected: FileRecord = {
    ...held,
    status: 'rejected',
    rejection,
    preflight: null,
    worker_started_at: null,
    updated_at: now.toISOString(),
    version: held.version + 1,
  };
  await repo.saveFile(tenant, held, rejected);
  await objects.deleteObject(fileKeys.pendingObject(tenant, held.id)).catch(() => undefined);
  return rejected;
}

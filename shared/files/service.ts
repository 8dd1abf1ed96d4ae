/**
 * Files: uploads through the API (multipart) and by presigned POST, their completion, reads,
 * downloads and deletion. A file's type is decided by its bytes (detect.ts); a declared type that
 * differs is refused (415) and nothing of the upload is kept. A customer access token uploads
 * files of its own and sees only those (another's answers 404).
 */
import { createHash } from 'node:crypto';
import { customerOf, type Principal, type Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { fileKeys } from '#shared/db/keys';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '#shared/errors';
import { cursorEntry } from '#shared/schemas/pagination';
import { detectFileType, FILE_HEAD_BYTES, type FileType } from './detect';
import { sanitizeFilename } from './filename';
import { finishUpload, handedToWorker, initialPreflight, pendingPreflight, rejectUpload } from './arrival';
import { MAX_MULTIPART_FILE_BYTES, SYNC_COMPLETE_MAX_BYTES } from './limits';
import * as objects from './objects';
import { quotaDay, quotaExpiry, quotaRefusal, uploadQuotaOf } from './quota';
import * as repo from './repository';
import type { FileListQuery, FileUpload, FileView } from './schema';
import { storedFile, type FileRecord } from './stored';
import { allowedTypesText, declaredType } from './types';

type Caller = Pick<Principal, 'kind' | 'customerId' | 'plan'>;

/**
 * What the files' rules need of an order a file is for, read by the process layer
 * (shared/fulfilment/order-files.ts) — files do not read orders: orders name files on their lines.
 * Undefined: the tenant has no such order.
 */
export interface OrderFacts {
  id: number;
  order_number: string;
  status: string;
  customer_id: number;
  /** The files the order's lines name, in line order. */
  file_ids: number[];
}

export const present: typeof storedFile.view = (value) => storedFile.view(value);

/** How long a completion holds a file in `processing` before another may take over (a crashed one). */
export const COMPLETION_LEASE_MS = 2 * 60_000;

const unsupported = (message: string) => new DomainError('unsupported_media_type', message);

/**
 * The type a client declared, by the one list both ways in take (ALLOWED_TYPES and their aliases,
 * types.ts): a declared type outside it is a 415 whatever the bytes are; `undefined` means "look
 * at the bytes" (application/octet-stream, or nothing).
 */
function acceptedDeclaration(declared: string | null | undefined): FileType | undefined {
  const said = declaredType(declared ?? undefined);
  if (said === null) throw unsupported(`${declared} is not an accepted type (${allowedTypesText})`);
  return said;
}

/** What a file is by its bytes, refusing what is not taken or not what it was declared to be. */
function typeOf(head: Uint8Array, declared: string | null): FileType {
  const said = acceptedDeclaration(declared);
  const detected = detectFileType(head);
  if (!detected) throw unsupported(`The file is not one of the accepted types (${allowedTypesText}), judged by its content`);
  if (said && said !== detected) throw unsupported(`The file was declared as ${said} but its content is ${detected}`);
  return detected;
}

/** The order a file is for must be the tenant's (and, for a customer token, the customer's own). */
function assertOrder(caller: Caller, orderId: number | undefined, order: OrderFacts | undefined): void {
  if (orderId === undefined) return;
  const own = customerOf(caller);
  if (!order || order.id !== orderId || (own !== undefined && order.customer_id !== own)) {
    throw new ValidationError('The file cannot be attached', [{ field: 'order_id', message: `No order with id ${orderId}` }]);
  }
}

/** A file of the tenant the caller may see: a customer token only its own (another is 404). */
async function visibleFile(tenant: Tenant, caller: Caller, id: number, consistent = false): Promise<FileRecord> {
  const file = await repo.requireFile(tenant, id, consistent);
  const own = customerOf(caller);
  if (own !== undefined && file.customer_id !== own) throw new NotFoundError('file', id);
  return file;
}

/**
 * Counts an upload of `bytes` against the daily quota — the tenant's, or a customer token's own
 * (quota.ts) — (429/413 QuotaExceededError when it does not fit, counting nothing) and runs
 * `store`; if that fails, the count is given back.
 */
async function withinQuota<T>(tenant: Tenant, caller: Caller, bytes: number, now: Date, store: () => Promise<T>): Promise<T> {
  const quota = uploadQuotaOf(caller.plan, customerOf(caller));
  const day = quotaDay(now);
  const used = await repo.reserveUpload(tenant, day, bytes, quota, quotaExpiry(now));
  if (used) throw quotaRefusal(quota, used, bytes, now);
  try {
    return await store();
  } catch (error) {
    await repo.releaseUpload(tenant, day, bytes, quota.customerId).catch(() => undefined);
    throw error;
  }
}

export interface MultipartFile {
  filename: string | undefined;
  declaredType: string | undefined;
  bytes: Uint8Array;
  purpose: FileRecord['purpose'];
  orderId: number | undefined;
}

/** `POST /v1/files`: the file checked and stored, ready at once (its preflight follows off the request path). */
export async function uploadFile(
  tenant: Tenant,
  caller: Caller,
  upload: MultipartFile,
  order: OrderFacts | undefined,
  now = new Date(),
): Promise<FileView> {
  if (upload.bytes.length > MAX_MULTIPART_FILE_BYTES) {
    throw new DomainError(
      'payload_too_large',
      `Files through the API are at most ${MAX_MULTIPART_FILE_BYTES} bytes (4 MiB); use POST /v1/files/uploads for larger ones`,
    );
  }
  if (upload.bytes.length === 0) throw new ValidationError('The upload is invalid', [{ field: 'file', message: 'is empty' }]);
  const contentType = typeOf(upload.bytes.subarray(0, FILE_HEAD_BYTES), upload.declaredType ?? null);
  assertOrder(caller, upload.orderId, order);
  return withinQuota(tenant, caller, upload.bytes.length, now, () => storeUpload(tenant, caller, upload, contentType, now));
}

async function storeUpload(tenant: Tenant, caller: Caller, upload: MultipartFile, contentType: FileType, now: Date): Promise<FileView> {
  const id = await nextId(tenant, 'file');
  const at = now.toISOString();
  const record: FileRecord = {
    id,
    filename: sanitizeFilename(upload.filename),
    content_type: contentType,
    declared_type: upload.declaredType ?? null,
    size: upload.bytes.length,
    sha256: createHash('sha256').update(upload.bytes).digest('hex'),
    purpose: upload.purpose,
    order_id: upload.orderId ?? null,
    customer_id: customerOf(caller) ?? null,
    status: 'ready',
    rejection: null,
    preflight: initialPreflight(upload.bytes.length),
    worker_started_at: null,
    created_at: at,
    updated_at: at,
    version: 1,
  };
  // The object first: a record never points at a missing object. If the record cannot be written, the object goes.
  await objects.putObject(fileKeys.object(tenant, id), upload.bytes, contentType);
  try {
    await repo.insertFile(tenant, record);
  } catch (error) {
    await objects.deleteObject(fileKeys.object(tenant, id)).catch(() => undefined);
    throw error;
  }
  return present(record);
}

/** `POST /v1/files/uploads`: a pending file and a presigned POST for exactly its declared size and type. */
export async function startUpload(tenant: Tenant, caller: Caller, input: FileUpload, order: OrderFacts | undefined, now = new Date()) {
  const said = acceptedDeclaration(input.content_type);
  if (!said) throw unsupported(`Declare what the file is (one of ${allowedTypesText}); it is checked against its content on completion`);
  assertOrder(caller, input.order_id, order);
  // The declared size counts: the POST policy takes exactly that many bytes.
  return withinQuota(tenant, caller, input.size, now, async () => {
    const record = pendingRecord(caller, input, said, await nextId(tenant, 'file'), now);
    await repo.insertFile(tenant, record);
    const upload = await objects.presignedPost(fileKeys.pendingObject(tenant, record.id), said, input.size, input.sha256, now);
    return { file: present(record), upload };
  });
}

function pendingRecord(caller: Caller, input: FileUpload, said: FileType, id: number, now: Date): FileRecord {
  const at = now.toISOString();
  return {
    id,
    filename: sanitizeFilename(input.filename),
    content_type: null,
    declared_type: said,
    size: input.size,
    sha256: input.sha256 ?? null,
    purpose: input.purpose,
    order_id: input.order_id ?? null,
    customer_id: customerOf(caller) ?? null,
    status: 'pending_upload',
    rejection: null,
    preflight: null,
    worker_started_at: null,
    created_at: at,
    updated_at: at,
    version: 1,
  };
}

export interface Completion {
  file: FileView;
  /** True while the file worker verifies the upload (`processing`): the answer is 202. */
  verifying: boolean;
}

/**
 * `POST /v1/files/{id}/complete`: bounded work at any size. The uploaded object is checked — there
 * (else 409), of the declared size and of the declared type by its first bytes — then an upload of
 * up to SYNC_COMPLETE_MAX_BYTES is verified here (its SHA-256: S3's checksum, or hashed) and moved
 * to its final key, the file `ready`; a larger one is handed to the file worker (`processing`, 202),
 * which does the same off the request path (arrival.ts). A wrong size or checksum found here is a
 * 422 (the object is removed; the upload may be sent again while its URL is valid); a wrong type a
 * 415 (the file is `rejected`). Completing a ready file, or one the worker is verifying, again
 * answers it as it is.
 */
export async function completeUpload(tenant: Tenant, caller: Caller, id: number, now = new Date()): Promise<Completion> {
  return retryOnVersionConflict('file', async () => {
    const file = await visibleFile(tenant, caller, id, true);
    if (file.status === 'ready') return { file: present(file), verifying: false };
    if (file.status === 'rejected') throw new ConflictError(`File ${id} was rejected: ${file.rejection ?? 'its upload was refused'}`);
    if (handedToWorker(file)) return { file: present(file), verifying: true };
    if (file.status === 'processing' && now.getTime() - Date.parse(file.updated_at) < COMPLETION_LEASE_MS) {
      throw new ConflictError(`File ${id} is being completed by another request; retry shortly`);
    }
    // Hold the file while it is checked, so concurrent completions do the work once.
    const held: FileRecord = { ...file, status: 'processing', updated_at: now.toISOString(), version: file.version + 1 };
    await repo.saveFile(tenant, file, held);
    try {
      const checked = await checkUpload(tenant, held, now);
      return { file: present(checked), verifying: checked.status === 'processing' };
    } catch (error) {
      // Refused or failed: back to waiting for (another) upload, unless the check rejected it for good.
      if (!(error instanceof DomainError && error.code === 'unsupported_media_type')) {
        await repo
          .saveFile(tenant, held, { ...held, status: 'pending_upload', updated_at: new Date().toISOString(), version: held.version + 1 })
          .catch(() => undefined);
      }
      throw error;
    }
  });
}

async function checkUpload(tenant: Tenant, held: FileRecord, now: Date): Promise<FileRecord> {
  const pending = fileKeys.pendingObject(tenant, held.id);
  const head = await objects.headObject(pending);
  if (!head) throw new ConflictError(`File ${held.id} has not been uploaded yet: POST it to the upload URL first`);
  const refuseUpload = async (field: string, message: string) => {
    await objects.deleteObject(pending);
    return new ValidationError('The upload does not match its declaration; send it again', [{ field, message }]);
  };
  if (head.size !== held.size) throw await refuseUpload('size', `the upload has ${head.size} bytes, ${held.size} were declared`);
  let contentType: FileType;
  try {
    contentType = typeOf(await objects.readHead(pending, FILE_HEAD_BYTES), held.declared_type);
  } catch (error) {
    await rejectUpload(tenant, held, (error as Error).message, now);
    throw error;
  }
  const typed: FileRecord = { ...held, content_type: contentType };
  if (held.size > SYNC_COMPLETE_MAX_BYTES) {
    // Too large to hash and copy within a request: the file worker verifies it (its stream filter
    // takes a processing file with a pending preflight), and the record keeps its TTL meanwhile.
    const handed: FileRecord = { ...typed, preflight: pendingPreflight(), updated_at: now.toISOString(), version: held.version + 1 };
    await repo.saveFile(tenant, held, handed);
    return handed;
  }
  const arrival = await finishUpload(tenant, typed, head.sha256, now);
  if ('mismatch' in arrival) throw await refuseUpload('sha256', `the upload's SHA-256 is ${arrival.mismatch}`);
  return arrival.ready;
}

export async function getFile(tenant: Tenant, caller: Caller, id: number): Promise<FileView> {
  return present(await visibleFile(tenant, caller, id));
}

/**
 * The cursor's file: the one `starting_after` names (422 when the tenant has none). It only
 * positions the list, so a customer token's cursor may be a file of the tenant that is not its
 * own: a page its filter stopped short names the last file examined, whoever uploaded it.
 */
function cursorOf(tenant: Tenant, id: number | undefined): Promise<FileRecord | undefined> {
  return cursorEntry(id, 'file', (id) => repo.readFile(tenant, id));
}

export async function listFiles(tenant: Tenant, caller: Caller, query: FileListQuery) {
  const page: repo.FilePageRequest = { page: query.page, perPage: query.per_page, after: await cursorOf(tenant, query.starting_after) };
  const result = await repo.listFiles(
    tenant,
    { orderId: query.order_id, purpose: query.purpose, status: query.status, customerId: customerOf(caller) },
    page,
  );
  return { ...result, items: result.items.map(present) };
}

/** A presigned download of a ready file (15 minutes, `Content-Disposition: attachment` with its name). */
export async function downloadFile(tenant: Tenant, caller: Caller, id: number, now = new Date()) {
  const file = await visibleFile(tenant, caller, id);
  if (file.status !== 'ready' || !file.content_type) throw new ConflictError(`File ${id} is ${file.status}: only a ready file downloads`);
  return objects.presignedDownload(fileKeys.object(tenant, id), file.content_type, file.filename, now);
}

/**
 * `GET /v1/orders/{id}/files`: the files the order's lines name, as they are now (with their
 * preflight), in the order the lines name them; a file deleted since is left out. A customer token
 * reads its own orders' only (another's is 404).
 */
export async function orderFiles(tenant: Tenant, caller: Caller, orderId: number, order: OrderFacts | undefined): Promise<FileView[]> {
  const own = customerOf(caller);
  if (!order || (own !== undefined && order.customer_id !== own)) throw new NotFoundError('order', orderId);
  const ids = [...new Set(order.file_ids)];
  const files = await repo.readFiles(tenant, ids);
  return ids
    .map((id) => files.get(id))
    .filter((file): file is FileRecord => file !== undefined)
    .map(present);
}

/**
 * `DELETE /v1/files/{id}`: the object and the record — not while the file's order is in production.
 * `orderOf`: the order the file is for (read by the process layer once the file is known).
 */
export async function deleteFile(
  tenant: Tenant,
  caller: Caller,
  id: number,
  orderOf: (orderId: number) => Promise<OrderFacts | undefined>,
): Promise<{ id: number; deleted: true }> {
  return retryOnVersionConflict('file', async () => {
    const file = await visibleFile(tenant, caller, id, true);
    const order = file.order_id === null ? undefined : await orderOf(file.order_id);
    if (order?.status === 'in_production') {
      throw new ConflictError(`File ${id} is on order ${order.order_number}, which is in production`);
    }
    await repo.deleteFileRecord(tenant, file);
    await objects.deleteObject(fileKeys.object(tenant, id)).catch(() => undefined);
    await objects.deleteObject(fileKeys.pendingObject(tenant, id)).catch(() => undefined);
    return { id, deleted: true as const };
  });
}

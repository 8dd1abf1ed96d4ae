/**
 * How a file's record is stored (docs/files.md, docs/data-model.md): one item per file, listed by
 * the tenant (gsi1) and by its order (gsi2), newest first. Its fields are written once, here; the
 * API shows them as stored. The object itself is in the files bucket under a key of its id only.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, fileKeys } from '#shared/db/keys';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import { ALLOWED_TYPES } from './detect';

export const FILE_PURPOSES = ['artwork', 'proof', 'attachment'] as const;
export const FILE_STATUSES = ['pending_upload', 'processing', 'ready', 'rejected'] as const;
export const PREFLIGHT_STATUSES = ['pending', 'passed', 'warnings', 'failed', 'skipped'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

const preflightCheck = /* @__PURE__ */ (() =>
  c.object(
    {
      code: field(c.string).describe('What was checked', 'resolution'),
      result: field(c.enumOf(['passed', 'warning', 'failed'] as const)),
      message: field(c.string),
    },
    { id: 'PreflightCheck' },
  ))();

const pageSize = /* @__PURE__ */ (() =>
  c.object(
    {
      page: field(c.int),
      width_mm: field(c.number),
      height_mm: field(c.number),
      trim_width_mm: field(c.nullable(c.number)).describe('The TrimBox, when the page has one'),
      trim_height_mm: field(c.nullable(c.number)),
    },
    { id: 'PreflightPageSize' },
  ))();

export const preflightShape = /* @__PURE__ */ (() =>
  c.object(
    {
      status: field(c.enumOf(PREFLIGHT_STATUSES)).describe(
        'pending until the check has run; skipped when nothing is checked: larger than it reads (200 MB), or SVG, PostScript, ZIP',
      ),
      checks: field(c.list(preflightCheck)),
      pages: field(c.nullable(c.int)).describe('PDF: the page count'),
      page_sizes: field(c.list(pageSize)).describe('PDF: each page (at most the first 500)'),
      encrypted: field(c.nullable(c.boolean)),
      width_px: field(c.nullable(c.int)).describe('Images: the pixel size'),
      height_px: field(c.nullable(c.int)),
      dpi: field(c.nullable(c.number)).describe('Images: the resolution the file states, if any'),
      checked_at: field(c.nullable(c.timestamp)),
    },
    { id: 'Preflight' },
  ))();

export const storedFile = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    filename: field(c.string).fixed().describe('As sent, sanitised for display and downloads', 'flyer-a5.pdf'),
    content_type: field(c.nullable(c.enumOf(ALLOWED_TYPES))).describe("Detected from the file's bytes; null until it has arrived"),
    declared_type: field(c.nullable(c.string)).fixed().describe('What the client said it is (informational)'),
    size: field(c.int).describe('Bytes (declared, until a presigned upload is completed)'),
    sha256: field(c.nullable(c.string)).describe('Hex; computed (or declared and checked) once the file has arrived'),
    purpose: field(c.enumOf(FILE_PURPOSES)).fixed(),
    order_id: field(c.nullable(c.int)).fixed(),
    customer_id: field(c.nullable(c.int)).fixed().describe('The customer who uploaded it with their access token; null for API keys'),
    status: field(c.enumOf(FILE_STATUSES)),
    rejection: field(c.nullable(c.string)).describe('Why a file was rejected'),
    preflight: field(c.nullable(preflightShape)).describe('The print check of a ready file (off the request path)'),
    // When the file worker began its work on the file (verifying an upload, or the preflight); removed
    // with its result. A retried record that finds it set knows the worker stopped there (out of time
    // or memory) and records that instead of trying again (docs/files.md#the-worker).
    worker_started_at: field(c.nullable(c.timestamp)).internal(),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().internal(),
  }))();

export type FileRecord = RecordOf<typeof storedFile.shape>;
export type Preflight = NonNullable<FileRecord['preflight']>;

/**
 * Seconds a pending upload's record lives (the presigned POST is valid 15 minutes; the object's tmp/
 * prefix expires in a day), counted from its creation — also while it is `processing`: a completion
 * that never ends (its function or the worker stopped) leaves no record behind.
 */
export const PENDING_TTL_SECONDS = 24 * 3600;

/** The statuses whose records expire: an upload not (yet) ready. */
const EXPIRING: readonly FileStatus[] = ['pending_upload', 'processing'];

/**
 * The index sort key: newest first by creation, then the purpose, the status and the uploading
 * customer (`-` for API keys), so a list filters on them by reading key records only
 * (`<created>#<id>#<purpose>#<status>#<customer>`).
 */
export const fileSortKey = (record: Pick<FileRecord, 'created_at' | 'id' | 'purpose' | 'status' | 'customer_id'>): string =>
  `${createdSortKey(record.created_at, record.id)}#${record.purpose}#${record.status}#${record.customer_id ?? '-'}`;

/** The file id in an index sort key (`<created>#<padded id>#…`). */
export const fileIdOfSortKey = (sortKey: string): number => Number(sortKey.split('#')[1]);

/** Purpose, status and customer back from an index sort key. */
export function sortKeyFacets(sortKey: string): { purpose: string; status: string; customer: string } {
  const parts = sortKey.split('#');
  return { purpose: parts.at(-3) ?? '', status: parts.at(-2) ?? '', customer: parts.at(-1) ?? '' };
}

/** The file's item with its index slots; an upload not ready yet expires by TTL (`expires_at`, epoch seconds). */
export function fileItem(tenant: Tenant, record: FileRecord): Record<string, unknown> {
  const sortKey = fileSortKey(record);
  return {
    ...fileKeys.file(tenant, record.id),
    entity: 'FILE',
    ...storedFile.attributes(record, 'put'),
    gsi1pk: fileKeys.filesCollection(tenant),
    gsi1sk: sortKey,
    ...(record.order_id !== null ? { gsi2pk: fileKeys.orderFiles(tenant, record.order_id), gsi2sk: sortKey } : {}),
    ...(EXPIRING.includes(record.status) ? { expires_at: Math.floor(Date.parse(record.created_at) / 1000) + PENDING_TTL_SECONDS } : {}),
  };
}

export const fileFromItem: typeof storedFile.read = (item) => storedFile.read(item);

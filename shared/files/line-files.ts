/**
 * Files on order, quote and cart lines: each id a line names must be a file of the tenant that is
 * `ready` — and, on a customer token's order, one that customer uploaded (another's is as unknown
 * as a missing one). Problems name the line (`items.2.file_ids.0`). The lines keep a copy of each
 * file's identity (name, type, size, SHA-256) — what was ordered is what is printed, whatever
 * happens to the file later; its preflight stays on the file (`GET /v1/orders/{id}/files`).
 */
import type { Tenant } from '#shared/auth/principal';
import { getMany } from '#shared/db/collections';
import { fileKeys } from '#shared/db/keys';
import type { ErrorDetail } from '#shared/errors';
import type { FileRecord } from './stored';

type FileFacts = Pick<FileRecord, 'id' | 'filename' | 'content_type' | 'size' | 'sha256' | 'status' | 'customer_id'>;

/**
 * The few attributes a line's check needs, read straight from the items: the order functions are
 * at their bundle budget, and decoding whole file records (their preflight and all) would carry
 * the file entity into every one of them. The names are storedFile's (stored.ts).
 */
async function readFileFacts(tenant: Tenant, ids: readonly number[]): Promise<Map<number, FileFacts>> {
  const items = await getMany(ids.map((id) => fileKeys.file(tenant, id)));
  return new Map(
    items.map((item) => [
      Number(item.id),
      {
        id: Number(item.id),
        filename: String(item.filename),
        content_type: (item.content_type ?? null) as FileFacts['content_type'],
        size: Number(item.size),
        sha256: (item.sha256 ?? null) as string | null,
        status: item.status as FileFacts['status'],
        customer_id: item.customer_id === undefined || item.customer_id === null ? null : Number(item.customer_id),
      },
    ]),
  );
}

/**
 * File references an order (or quote) holds in all its lines: each keeps a copy of its file's
 * identity, and an order with its copies must stay far inside DynamoDB's 400 KB item (its
 * `order.created` event carries it again; test/unit/item-budgets.test.ts).
 */
export const MAX_FILES_PER_ORDER = 50;

export interface FileCopy {
  id: number;
  filename: string;
  content_type: string;
  size: number;
  sha256: string | null;
}

export interface LineFiles {
  problems: ErrorDetail[];
  copies: ReadonlyMap<number, FileCopy>;
}

const copyOf = (file: FileFacts): FileCopy => ({
  id: file.id,
  filename: file.filename,
  content_type: file.content_type ?? 'application/octet-stream',
  size: file.size,
  sha256: file.sha256,
});

/** Checks the files `lines` name (one BatchGetItem for all of them; none when no line names one). */
export async function checkLineFiles(
  tenant: Tenant,
  lines: readonly { file_ids: readonly number[] }[],
  options: { field?: string; owner?: number } = {},
): Promise<LineFiles> {
  const references = lines.reduce((sum, line) => sum + line.file_ids.length, 0);
  if (references > MAX_FILES_PER_ORDER) {
    return {
      problems: [
        { field: options.field ?? 'items', message: `the lines name ${references} files; an order takes at most ${MAX_FILES_PER_ORDER}` },
      ],
      copies: new Map(),
    };
  }
  const ids = [...new Set(lines.flatMap((line) => line.file_ids))];
  if (ids.length === 0) return { problems: [], copies: new Map() };
  const files = await readFileFacts(tenant, ids);
  const problems: ErrorDetail[] = [];
  const copies = new Map<number, FileCopy>();
  lines.forEach((line, index) =>
    line.file_ids.forEach((id, position) => {
      const field = `${options.field ?? 'items'}.${index}.file_ids.${position}`;
      const file = files.get(id);
      if (!file || (options.owner !== undefined && file.customer_id !== options.owner)) {
        problems.push({ field, message: `No file with id ${id}` });
      } else if (file.status !== 'ready') {
        problems.push({ field, message: `File ${id} is ${file.status}: only a ready file can be printed` });
      } else {
        copies.set(id, copyOf(file));
      }
    }),
  );
  return { problems, copies };
}

/** The lines with the copies of their files, in the order the line names them. */
export function withFileCopies<L extends { file_ids: number[] }>(
  lines: L[],
  copies: ReadonlyMap<number, FileCopy>,
): (L & { files: FileCopy[] })[] {
  return lines.map((line) => ({
    ...line,
    files: line.file_ids.map((id) => copies.get(id)).filter((copy): copy is FileCopy => copy !== undefined),
  }));
}

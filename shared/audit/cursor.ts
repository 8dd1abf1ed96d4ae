/**
 * The audit list's cursor (`pagination.next_cursor`, sent back as `starting_after`): where the
 * last page ended — the sort key of the last record it read, `<ISO time>#<request id>` — and the
 * start of its range, so the next pages cover the range the first one was asked for. Opaque to
 * clients: base64url of a small JSON object, safe in a query string.
 */
export interface AuditCursor {
  /** The sort key the next page starts after (newest first: the next page holds older records). */
  after: string;
  /** The range's start (ISO time) when the first page was asked for. */
  from: string;
}

const SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[\x21-\x7e]{1,200}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function encodeAuditCursor(cursor: AuditCursor): string {
  return Buffer.from(JSON.stringify({ a: cursor.after, f: cursor.from }), 'utf8').toString('base64url');
}

/** The cursor `text` encodes, or undefined when it is not one this list handed out. */
export function decodeAuditCursor(text: string): AuditCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(text)) return undefined;
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { a?: unknown; f?: unknown };
    if (typeof value.a !== 'string' || typeof value.f !== 'string' || !SORT_KEY.test(value.a) || !ISO_TIME.test(value.f)) return undefined;
    if (Number.isNaN(Date.parse(value.f)) || Number.isNaN(Date.parse(value.a.slice(0, 24)))) return undefined;
    return { after: value.a, from: value.f };
  } catch {
    return undefined;
  }
}

/** The time of the record a cursor points after. */
export const cursorTime = (cursor: AuditCursor): string => cursor.after.slice(0, 24);

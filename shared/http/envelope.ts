import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ErrorCode, ErrorDetail } from '#shared/errors';
import type { Pagination } from '#shared/schemas/pagination';

/**
 * The `pagination` block of a list answer (docs/platform.md#lists): `page` and `per_page`;
 * `total` and `total_pages` where the list has a total (exact, or a lower bound when
 * `total_capped` is true); `has_more`; and `next_cursor` on lists that page by cursor (pass it as
 * `starting_after`; null on the last page). Cursor lists without a total (audit logs, events)
 * leave `total` and `total_pages` out.
 */
export type ListPagination = Pagination;

export interface PageFacts {
  /** The total is a lower bound (counted up to a cap). */
  capped?: boolean;
  /** Measured by the read (one entry beyond the page); otherwise derived from the total. */
  hasMore?: boolean;
  /** Where the next page starts (`starting_after`); only on lists that take a cursor. */
  nextCursor?: string | null;
}

/** The `pagination` block of a list with a total (page numbers, and a cursor where the list takes one). */
export function pagination(page: number, perPage: number, total: number, facts: PageFacts = {}): ListPagination {
  return {
    page,
    per_page: perPage,
    total,
    total_pages: Math.ceil(total / perPage),
    total_capped: facts.capped ?? false,
    has_more: facts.hasMore ?? (facts.capped === true || page * perPage < total),
    ...(facts.nextCursor === undefined ? {} : { next_cursor: facts.nextCursor }),
  };
}

/**
 * `next_cursor` of a list paged by id (`starting_after=<id>`): the page's last id while more follow;
 * null at the end — and when the page's items were all deleted between its index read and their fetch.
 */
export function nextIdCursor(items: readonly { id: number | string }[], hasMore: boolean): string | null {
  const last = items.at(-1);
  return hasMore && last ? String(last.id) : null;
}

/** The `pagination` block of a cursor list without a total (audit logs, events). */
export function cursorPagination(perPage: number, next: string | undefined): ListPagination {
  return { page: 1, per_page: perPage, has_more: next !== undefined, next_cursor: next ?? null };
}

export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A document instead of a JSON body: bytes (answered base64-encoded, which API Gateway turns back
   * into bytes for a binary media type the request accepts) or text, with its content type.
   */
  document?: { content: Uint8Array | string; contentType: string };
}

/** A document answer (a PDF, an XML file) with its Content-Disposition. */
export const documentResult = (
  content: Uint8Array | string,
  contentType: string,
  disposition: string,
  headers: Record<string, string> = {},
): HttpResult => ({
  status: 200,
  document: { content, contentType },
  headers: { 'Content-Disposition': disposition, ...headers },
});

/**
 * True when the request's first Accept type is `type`: API Gateway returns a base64 answer as
 * bytes only then (its binary media types are matched against the first Accept type), so a
 * document route answers bytes only to such a request and redirects any other.
 */
export const acceptsFirst = (accept: string | undefined, type: string): boolean =>
  (accept ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase() === type;

/** A redirect (a presigned document URL), without a body. */
export const redirect = (location: string, headers: Record<string, string> = {}): HttpResult => ({
  status: 302,
  headers: { Location: location, 'Cache-Control': 'no-store', ...headers },
});

export const ok = (data: unknown, headers?: Record<string, string>): HttpResult => ({
  status: 200,
  body: { success: true, data },
  headers,
});

export const created = (data: unknown, headers?: Record<string, string>): HttpResult => ({
  status: 201,
  body: { success: true, data },
  headers,
});

/** Accepted, still being worked on off the request path (a large upload the file worker verifies): 202 with the resource as it is. */
export const accepted = (data: unknown, headers?: Record<string, string>): HttpResult => ({
  status: 202,
  body: { success: true, data },
  headers,
});

export const listed = (data: unknown[], pagination: ListPagination): HttpResult => ({
  status: 200,
  body: { success: true, data, pagination },
});

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: ErrorDetail[]) {
  return {
    success: false as const,
    error: { code, message, ...(details && details.length ? { details } : {}), request_id: requestId },
  };
}

export function toProxyResult(result: HttpResult, requestId: string): APIGatewayProxyResult {
  if (result.document) {
    const { content, contentType } = result.document;
    const binary = typeof content !== 'string';
    return {
      statusCode: result.status,
      headers: { 'Content-Type': contentType, ...result.headers, 'X-Request-Id': requestId },
      body: binary ? Buffer.from(content).toString('base64') : content,
      isBase64Encoded: binary,
    };
  }
  return {
    statusCode: result.status,
    headers: {
      ...(result.body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
      ...result.headers,
      'X-Request-Id': requestId,
    },
    body: result.body === undefined ? '' : JSON.stringify(result.body),
  };
}

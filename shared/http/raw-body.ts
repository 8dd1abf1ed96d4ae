/**
 * Non-JSON request bodies (CSV uploads). The middy stack parses JSON only for operations with a
 * `body` schema; an operation with `rawBody` gets `event.body` untouched and reads it here.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { DomainError } from '#shared/errors';

/** `text/csv; charset=utf-8` → `text/csv`. */
const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * The body as UTF-8 text when its Content-Type is one of `accepted` (415 otherwise). API Gateway
 * base64-encodes bodies of binary media types; both encodings are accepted. A leading BOM is
 * dropped (spreadsheet exports add one).
 */
export function textBody(event: APIGatewayProxyEvent, accepted: readonly string[]): string {
  const headers = event.headers ?? {};
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (!accepted.includes(mediaType(contentType))) {
    throw new DomainError('unsupported_media_type', `Send this body with Content-Type: ${accepted.join(' or ')}`);
  }
  const raw = event.body ?? '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

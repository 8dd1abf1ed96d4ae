/**
 * Non-JSON request bodies (CSV uploads). The middy stack parses JSON only for operations with a
 * `body` schema; an operation with `rawBody` gets `event.body` untouched and reads it here.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { DomainError } from '#shared/errors';

/** `text/csv; charset=utf-8` → `text/csv`. */
const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]!.trim().toLowerCase();

const megabytes = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * The body as UTF-8 text when its Content-Type is one of `accepted` (415 otherwise) and it holds
 * at most `maxBytes` (413 `payload_too_large` otherwise, before anything reads it). API Gateway
 * base64-encodes bodies of binary media types; both encodings are accepted. A leading BOM is
 * dropped (spreadsheet exports add one).
 */
export function textBody(event: APIGatewayProxyEvent, accepted: readonly string[], maxBytes = Number.POSITIVE_INFINITY): string {
  const headers = event.headers ?? {};
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (!accepted.includes(mediaType(contentType))) {
    throw new DomainError('unsupported_media_type', `Send this body with Content-Type: ${accepted.join(' or ')}`);
  }
  const raw = event.body ?? '';
  // Base64 holds 3 bytes per 4 characters; text is measured in UTF-8 bytes.
  const bytes = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw, 'utf8');
  if (bytes > maxBytes) {
    throw new DomainError('payload_too_large', `The body holds ${megabytes(bytes)}; at most ${megabytes(maxBytes)} are accepted here`);
  }
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

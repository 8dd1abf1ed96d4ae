/**
 * The HTTP headers of the contract, in one table: what each one means, its schema, and which
 * answers carry it (response headers) or which requests may send it (request headers). The
 * OpenAPI document declares them from here (document.ts), and the integration suite checks every
 * answer it receives against that document (test/support/contract-check.ts), so a header
 * declared here that the service stops sending fails a test. docs/contract.md lists them.
 */
import * as z from 'zod';
import type { DocumentedOperation } from '#shared/schemas/operation';

interface HeaderSchema {
  type: 'string' | 'integer';
  format?: string;
  enum?: string[];
  minimum?: number;
  example?: string | number;
}

export interface ResponseHeader {
  name: string;
  description: string;
  schema: HeaderSchema;
  /** Whether the answers it is declared on always carry it, or only some of them (`description` says which). */
  required: boolean;
}

/** Where the service sends it (shared/http/envelope.ts, middleware/request-scope.ts, error-mapping.ts and the handlers named). */
export const responseHeaders = {
  requestId: {
    name: 'X-Request-Id',
    description: "The request's id, on every answer (errors too: equal to `error.request_id`); quote it when asking about a request.",
    schema: { type: 'string', example: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef' },
    required: true,
  },
  rateLimitLimit: {
    name: 'X-RateLimit-Limit',
    description: "The requests per minute of the caller's quota (docs/platform.md#rate-limits), once the key is known and counted.",
    schema: { type: 'integer', minimum: 0, example: 500 },
    required: true,
  },
  rateLimitRemaining: {
    name: 'X-RateLimit-Remaining',
    description: "What is left of the quota's current minute.",
    schema: { type: 'integer', minimum: 0, example: 499 },
    required: true,
  },
  rateLimitReset: {
    name: 'X-RateLimit-Reset',
    description: 'When the next window starts (Unix seconds).',
    schema: { type: 'integer', minimum: 0, example: 1767225660 },
    required: true,
  },
  retryAfter: {
    name: 'Retry-After',
    description: 'Whole seconds to wait before trying again (at least 1).',
    schema: { type: 'integer', minimum: 1, example: 12 },
    required: true,
  },
  etag: {
    name: 'ETag',
    description:
      'The resource\'s version as a weak ETag (`W/"3"`): send it, or the version, as If-Match to change it only if nobody else did.',
    schema: { type: 'string', example: 'W/"3"' },
    required: true,
  },
  location: {
    name: 'Location',
    description: 'The presigned URL of the document (valid 15 minutes).',
    schema: { type: 'string', format: 'uri' },
    required: true,
  },
  contentDisposition: {
    name: 'Content-Disposition',
    description: 'With the document itself (not with the JSON of `format=url`): `inline` or `attachment`, and its file name.',
    schema: { type: 'string', example: 'inline; filename="INV-2026-00042.pdf"' },
    required: false,
  },
  documentCached: {
    name: 'X-Document-Cached',
    description:
      'With the document itself: `true` when it was rendered before and read from storage, `false` when rendered for this request.',
    schema: { type: 'string', enum: ['true', 'false'] },
    required: false,
  },
  idempotentReplayed: {
    name: 'Idempotent-Replayed',
    description:
      '`true` when the answer is the stored first answer to this Idempotency-Key (the work was not done again); absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
    required: false,
  },
} as const satisfies Record<string, ResponseHeader>;

const optional = (header: ResponseHeader, description: string): ResponseHeader => ({
  ...header,
  required: false,
  description: `${header.description} ${description}`,
});

/** Whether a POST takes Idempotency-Key: every keyed POST but those that answer new tokens (a replay would hand them out again). */
export const takesIdempotencyKey = (operation: DocumentedOperation): boolean =>
  operation.route.method === 'POST' && operation.route.auth === 'key' && !operation.route.signsTokens;

/** Whether the route answers bytes or a redirect depending on the request's first Accept type (shared/http/envelope.ts acceptsFirst). */
export const selectsByAccept = (operation: DocumentedOperation): boolean =>
  Boolean(operation.documents?.redirects && operation.documents.contentTypes.some((type) => type.binary));

/** The headers one response of `operation` carries. */
export function responseHeadersOf(operation: DocumentedOperation, status: number): ResponseHeader[] {
  const keyed = operation.route.auth === 'key';
  const success = status >= 200 && status < 300;
  const headers: ResponseHeader[] = [responseHeaders.requestId];
  if (keyed) {
    // The guard sets them once the key is counted: on every answer but an error raised before that (401, a customer token's 403).
    const rateLimit = [responseHeaders.rateLimitLimit, responseHeaders.rateLimitRemaining, responseHeaders.rateLimitReset];
    headers.push(
      ...(status < 400 || status === 429 ? rateLimit : rateLimit.map((header) => optional(header, 'Not when refused before counting.'))),
    );
  }
  if (status === 429) headers.push(responseHeaders.retryAfter);
  // A passing 503 — a gap-free number's queue too long (shared/db/gap-free.ts) — says when to try again; a missing setup step does not.
  if (status === 503) headers.push(optional(responseHeaders.retryAfter, 'When the condition passes by itself (a number sequence busy).'));
  // The daily upload quota's bytes (shared/files/quota.ts): a 413 upload_volume_exceeded says when the day ends.
  if (status === 413 && operation.route.files) headers.push(optional(responseHeaders.retryAfter, 'Only with `upload_volume_exceeded`.'));
  if (operation.etag && success) headers.push(responseHeaders.etag);
  if (status === 302) headers.push(responseHeaders.location);
  if (status === 200 && operation.documents?.contentTypes.length)
    headers.push(responseHeaders.contentDisposition, responseHeaders.documentCached);
  if (takesIdempotencyKey(operation) && success) headers.push(responseHeaders.idempotentReplayed);
  return headers;
}

/** The request headers `operation` reads, as the document's header parameters (zod, like its other parameters). */
export function requestHeadersOf(operation: DocumentedOperation): z.ZodObject | undefined {
  const shape: Record<string, z.ZodType> = {
    ...(takesIdempotencyKey(operation)
      ? {
          'Idempotency-Key': z
            .string()
            .regex(/^[\x20-\x7E]{1,255}$/)
            .optional()
            .meta({
              description:
                'Makes a retry safe: the same key with the same request within 24 hours answers the first answer again (with `Idempotent-Replayed: true`) ' +
                'instead of doing the work twice; with another request, or while the first is still running, 409 `idempotency_conflict`. ' +
                '1 to 255 printable ASCII characters (else 422).',
              example: 'order-7f3c9a2e',
            }),
        }
      : {}),
    ...(operation.ifMatch
      ? {
          'If-Match': z
            .string()
            .optional()
            .meta({
              description:
                'Change only if the resource is still at this version: the version (`3`), its ETag (`W/"3"`), a comma-separated list of them, or `*`. ' +
                'Another version answers 412 `precondition_failed` and nothing changes.',
              example: 'W/"3"',
            }),
        }
      : {}),
    ...(selectsByAccept(operation)
      ? {
          Accept: z.string().optional().meta({
            description:
              'The document itself (200) when the first type is `application/pdf`; any other: a redirect (302) to its presigned URL. `format=url` answers JSON whatever this says.',
            example: 'application/pdf',
          }),
        }
      : {}),
    ...(operation.headers?.shape ?? {}),
  };
  return Object.keys(shape).length ? z.object(shape) : undefined;
}

/** The OpenAPI header objects of one response. */
export function responseHeaderObjects(operation: DocumentedOperation, status: number) {
  return Object.fromEntries(
    responseHeadersOf(operation, status).map(({ name, description, schema, required }) => [name, { description, required, schema }]),
  );
}

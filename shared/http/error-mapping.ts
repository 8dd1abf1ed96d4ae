import type { APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '#shared/logger';
import { ConflictError, DomainError, RateLimitedError, VersionConflict, type ErrorCode } from '#shared/errors';
import { errorBody } from './envelope';

/** The HTTP status of every error code: the one place where domain errors meet HTTP. */
export const statusOf: Record<ErrorCode, number> = {
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  ip_not_allowed: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_transition: 409,
  idempotency_conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  internal_error: 500,
};

interface MiddyHttpError {
  statusCode: number;
  message: string;
  cause?: { package?: string };
}

const isMiddyHttpError = (error: unknown): error is MiddyHttpError =>
  typeof error === 'object' && error !== null && typeof (error as MiddyHttpError).statusCode === 'number';

/** Errors raised by middy's JSON body parser, translated to this API's codes. */
function fromMiddy(error: MiddyHttpError): DomainError | undefined {
  if (error.statusCode === 415) {
    return new DomainError('unsupported_media_type', 'Send request bodies as JSON with Content-Type: application/json');
  }
  if (error.statusCode === 422 || error.statusCode === 400) {
    return new DomainError('invalid_json', 'The request body is not valid JSON');
  }
  if (error.statusCode === 413) return new DomainError('payload_too_large', 'The request body is too large');
  return undefined;
}

/** The one place where any thrown value becomes an HTTP response. Unknown errors never leak details. */
export function toErrorResult(error: unknown, requestId: string): APIGatewayProxyResult {
  let known: DomainError | undefined;
  if (error instanceof DomainError) known = error;
  else if (error instanceof VersionConflict)
    known = new ConflictError('The resource was changed by another request at the same time; try again');
  else if (isMiddyHttpError(error)) known = fromMiddy(error);

  if (!known) {
    logger.error('unhandled error', error as Error);
    known = new DomainError('internal_error', 'Something went wrong on our side; the request id helps us find it');
  } else if (statusOf[known.code] >= 500) {
    logger.error('server error', known);
  }
  const retryAfter: Record<string, string> = known instanceof RateLimitedError ? { 'Retry-After': String(known.retryAfterSeconds) } : {};
  return {
    statusCode: statusOf[known.code],
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...retryAfter, 'X-Request-Id': requestId },
    body: JSON.stringify(errorBody(known.code, known.message, requestId, known.details)),
  };
}

import type { APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '#shared/logger';
import {
  ConflictError,
  DomainError,
  MAX_DETAIL_FIELD_LENGTH,
  MAX_DETAIL_MESSAGE_LENGTH,
  MAX_ERROR_DETAILS,
  moreDetails,
  QuotaExceededError,
  RateLimitedError,
  ServiceUnavailableError,
  VersionConflict,
  type ErrorCode,
  type ErrorDetail,
} from '#shared/errors';
import { errorBody } from './envelope';

/** The HTTP status of every error code: the one place where domain errors meet HTTP. */
export const statusOf: Record<ErrorCode, number> = {
  bad_request: 400,
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
  /** A dependency, the mail service, refused the message or cannot send now (shared/mail/send.ts); nothing was sent. */
  mail_not_sent: 502,
  /** A carrier failed (announcement failed, 5xx, no answer in time); its message is passed on. */
  carrier_error: 502,
  /**
   * The stage is missing an operator's setup step (shared/customer-auth/key-store.ts), or a gap-free
   * number's queue is too long (shared/db/gap-free.ts, with Retry-After); nothing was done.
   */
  service_unavailable: 503,
  /** The request ran out of time (shared/http/middleware/request-scope.ts answers before Lambda stops it). */
  timeout: 504,
  /** The day's uploads of the tenant are as many files as its plan takes (shared/files/quota.ts). */
  upload_quota_exceeded: 429,
  /** The upload's bytes would pass what the tenant's plan takes in a day. */
  upload_volume_exceeded: 413,
};

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Whatever raised it, an error body stays small: at most MAX_ERROR_DETAILS details (the message
 * says how many were left out: `moreDetails`), field names and messages cut to a bounded length (a
 * field name may be an unknown key of a megabyte).
 */
const boundedDetails = (details: ErrorDetail[] | undefined): ErrorDetail[] | undefined =>
  details
    ?.slice(0, MAX_ERROR_DETAILS)
    .map((detail) => ({ field: cut(detail.field, MAX_DETAIL_FIELD_LENGTH), message: cut(detail.message, MAX_DETAIL_MESSAGE_LENGTH) }));

/** The one place where any thrown value becomes an HTTP response. Unknown errors never leak details. */
export function toErrorResult(error: unknown, requestId: string): APIGatewayProxyResult {
  let known: DomainError | undefined;
  if (error instanceof DomainError) known = error;
  else if (error instanceof VersionConflict)
    known = new ConflictError('The resource was changed by another request at the same time; try again');

  if (!known) {
    logger.error('unhandled error', error as Error);
    known = new DomainError('internal_error', 'Something went wrong on our side; the request id helps us find it');
  } else if (statusOf[known.code] >= 500) {
    logger.error('server error', known);
  }
  const retryAfterSeconds =
    known instanceof RateLimitedError || known instanceof QuotaExceededError || known instanceof ServiceUnavailableError
      ? known.retryAfterSeconds
      : undefined;
  const retryAfter: Record<string, string> = retryAfterSeconds !== undefined ? { 'Retry-After': String(retryAfterSeconds) } : {};
  const total = known.details?.length ?? 0;
  const message = total > MAX_ERROR_DETAILS ? `${known.message}${moreDetails(total, MAX_ERROR_DETAILS)}` : known.message;
  const details = boundedDetails(known.details);
  return {
    statusCode: statusOf[known.code],
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...retryAfter, 'X-Request-Id': requestId },
    body: JSON.stringify(errorBody(known.code, message, requestId, details)),
  };
}

/**
 * Domain errors: what went wrong, in the API's vocabulary (a stable `code`, a message for people,
 * `details` per field). Domain code throws these and knows nothing of HTTP; the one mapping from
 * code to status and error body is shared/http/error-mapping.ts.
 */
export interface ErrorDetail {
  field: string;
  message: string;
}

export type ErrorCode =
  | 'invalid_json'
  | 'unauthorized'
  | 'forbidden'
  | 'ip_not_allowed'
  | 'insufficient_scope'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'invalid_transition'
  | 'idempotency_conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'rate_limited'
  | 'internal_error';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class NotFoundError extends DomainError {
  constructor(resource: string, id: string | number) {
    super('not_found', `No ${resource} with id ${id}`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super('conflict', message, details);
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details: ErrorDetail[]) {
    super('validation_failed', message, details);
  }
}

export class PreconditionFailedError extends DomainError {
  constructor(message = 'The resource has changed since the version given in If-Match') {
    super('precondition_failed', message);
  }
}

/** Over the rate limit: the caller may try again after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

/**
 * Not an answer to the caller: the item changed between a read and a conditional write (its
 * version or status moved). Repositories throw it; services re-read and try again
 * (shared/async/retry.ts), and only when that keeps failing does the caller get a 409.
 */
export class VersionConflict extends Error {
  constructor(readonly what = 'item') {
    super(`The ${what} changed since it was read`);
    this.name = 'VersionConflict';
  }
}

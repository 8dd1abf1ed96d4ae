/**
 * Domain errors: what went wrong, in the API's vocabulary (a stable `code`, a message for people,
 * `details` per field). Domain code throws these and knows nothing of HTTP; the one mapping from
 * code to status and error body is shared/http/error-mapping.ts.
 */
export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * At most this many `details` in one error body, each field name and message cut to a bounded
 * length: a request of a million unknown keys gets a 422 of a few kilobytes, not one larger than
 * the request (Lambda answers at most 6 MB). The message says how many were left out.
 */
export const MAX_ERROR_DETAILS = 50;
export const MAX_DETAIL_FIELD_LENGTH = 200;
export const MAX_DETAIL_MESSAGE_LENGTH = 500;

/** What an error message adds when only the first `shown` of `total` details are listed. */
export const moreDetails = (total: number, shown: number): string => ` (${total} problems; the first ${shown} are listed)`;

export type ErrorCode =
  | 'bad_request'
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
  | 'internal_error'
  // Mail (shared/mail): the mail service refused or could not take a message.
  | 'mail_not_sent'
  // Carriers (shared/shipments/carriers): the carrier failed or did not answer (its refusals are validation_failed).
  | 'carrier_error'
  // A setup step of the stage is missing (the customer-token signing keys): an operator's to do.
  | 'service_unavailable'
  | 'timeout'
  // A tenant's daily upload quota (shared/files/quota.ts): its files (429) or its bytes (413).
  | 'upload_quota_exceeded'
  | 'upload_volume_exceeded';

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

/** Credentials or a token that do not authenticate (a customer login, a refresh token): 401, saying no more than that. */
export class UnauthorizedError extends DomainError {
  constructor(message: string) {
    super('unauthorized', message);
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, details: ErrorDetail[]) {
    super('validation_failed', message, details);
  }
}

/** A list's `starting_after` names an entry the tenant does not have: 422 on that parameter. */
export class UnknownCursorError extends ValidationError {
  constructor(resource: string, id: number) {
    super('Unknown cursor', [{ field: 'starting_after', message: `No ${resource} with id ${id}` }]);
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
 * A daily quota of the tenant's is used up (uploads: files 429, bytes 413): the details name the
 * limit and the use; `retryAfterSeconds` is when it starts again (the next UTC day).
 */
export class QuotaExceededError extends DomainError {
  constructor(
    code: 'upload_quota_exceeded' | 'upload_volume_exceeded',
    message: string,
    details: ErrorDetail[],
    readonly retryAfterSeconds: number,
  ) {
    super(code, message, details);
  }
}

/**
 * The mail service (SES) refused a message or cannot send now: a rejected message (in the SES
 * sandbox: an unverified recipient), a sender identity that is not verified, a paused or suspended
 * account, a sending quota used up. Nothing was sent; the caller may try again later. `reason` is
 * SES's error name, for the logs; the message says what happened without SES's own wording (which
 * names the sender identity and region).
 */
export class MailNotSentError extends DomainError {
  constructor(
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('mail_not_sent', message);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * 503, nothing was done: the stage lacks something only its operator can make (the customer-token
 * signing keys, made by the accounts CLI; the message says which step is missing), or — with
 * `retryAfterSeconds`, answered as Retry-After — a passing condition: a gap-free number's queue
 * too long to wait through (shared/db/gap-free.ts).
 */
export class ServiceUnavailableError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super('service_unavailable', message);
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

/**
 * A carrier (Sendcloud…) refused a request (422 `validation_failed`: its validation, the account's
 * credentials) or failed to carry it out (502 `carrier_error`: its announcement failed, it answered
 * 5xx or not in time). The message carries the carrier's own words; `details` its field errors.
 */
export class CarrierError extends DomainError {
  constructor(
    code: 'validation_failed' | 'carrier_error',
    message: string,
    details?: ErrorDetail[],
    readonly carrierStatus?: number,
  ) {
    super(code, message, details);
    this.name = 'CarrierError';
  }
}

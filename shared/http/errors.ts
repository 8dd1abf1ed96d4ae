/**
 * Typed domain errors. Domain code throws these; the error middleware maps them to the error
 * body `{ success: false, error: { code, message, details?, request_id } }` in one place.
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

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = statusOf[code];
  }
}

export class NotFoundError extends ApiError {
  constructor(resource: string, id: string | number) {
    super('not_found', `No ${resource} with id ${id}`);
  }
}

export class ConflictError extends ApiError {
  constructor(message: string, details?: ErrorDetail[]) {
    super('conflict', message, details);
  }
}

export class ValidationError extends ApiError {
  constructor(message: string, details: ErrorDetail[]) {
    super('validation_failed', message, details);
  }
}

export class PreconditionFailedError extends ApiError {
  constructor(message = 'The resource has changed since the version given in If-Match') {
    super('precondition_failed', message);
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

import type { APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../logger';
import { errorBody } from './envelope';
import { ApiError, type ErrorCode } from './errors';

interface MiddyHttpError {
  statusCode: number;
  message: string;
  cause?: { package?: string };
}

const isMiddyHttpError = (error: unknown): error is MiddyHttpError =>
  typeof error === 'object' && error !== null && typeof (error as MiddyHttpError).statusCode === 'number';

/** Errors raised by middy's JSON body parser, translated to this API's codes. */
function fromMiddy(error: MiddyHttpError): ApiError | undefined {
  if (error.statusCode === 415) {
    return new ApiError('unsupported_media_type', 'Send request bodies as JSON with Content-Type: application/json');
  }
  if (error.statusCode === 422 || error.statusCode === 400) {
    return new ApiError('invalid_json', 'The request body is not valid JSON');
  }
  if (error.statusCode === 413) return new ApiError('payload_too_large', 'The request body is too large');
  return undefined;
}

/** The one place where any thrown value becomes an HTTP response. Unknown errors never leak details. */
export function toErrorResult(error: unknown, requestId: string): APIGatewayProxyResult {
  let apiError: ApiError | undefined;
  if (error instanceof ApiError) apiError = error;
  else if (isMiddyHttpError(error)) apiError = fromMiddy(error);

  if (!apiError) {
    logger.error('unhandled error', error as Error);
    apiError = new ApiError('internal_error' as ErrorCode, 'Something went wrong on our side; the request id helps us find it');
  } else if (apiError.status >= 500) {
    logger.error('server error', apiError);
  }
  return {
    statusCode: apiError.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...apiError.headers, 'X-Request-Id': requestId },
    body: JSON.stringify(errorBody(apiError.code, apiError.message, requestId, apiError.details)),
  };
}

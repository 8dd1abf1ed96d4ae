import type { APIGatewayProxyResult } from 'aws-lambda';
import type { ErrorCode, ErrorDetail } from '#shared/errors';
import type { Pagination } from '#shared/schemas/pagination';

/** The `pagination` block of a list answer. */
export function pagination(page: number, perPage: number, total: number): Pagination {
  return { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) };
}

export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

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

export const listed = (data: unknown[], pagination: Pagination): HttpResult => ({
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

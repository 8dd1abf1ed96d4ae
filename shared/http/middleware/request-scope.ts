/**
 * Outermost middleware: request id (API Gateway's own, so it matches the access log), structured
 * logging, the one mapping of errors to the error body, response headers (X-Request-Id,
 * X-RateLimit-*), and the audit record of every call whose key is known — emitted as a log line
 * once the response is decided (shipped to the table off the request path, see audit/sink.ts).
 * A crash (any error the work throws) is answered and recorded as the bare 500 `internal_error`;
 * `withDeadline` wraps the whole stack, so that a request that runs out of time is answered and
 * recorded too.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { customerOf } from '#shared/auth/principal';
import { emitAudit } from '#shared/audit/sink';
import { auditRecordOf } from '#shared/audit/stored';
import { DomainError } from '#shared/errors';
import { logger } from '#shared/logger';
import type { RouteDefinition } from '#shared/routes';
import { toErrorResult } from '#shared/http/error-mapping';
import { admissionError, maybeInvocationOf, startInvocation, type Invocation } from '#shared/http/invocation';

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

function lowerCaseHeaders(headers: APIGatewayProxyEvent['headers'] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

/**
 * Browsers (the admin panel) may read responses from the origins in CORS_ORIGINS (comma-separated,
 * `*` for any); API Gateway answers the preflight, the handler the actual request.
 */
const corsOrigins = (process.env.CORS_ORIGINS ?? '')
  .split(',')
  .map((origin) => origin.trim())
  .filter(Boolean);

function corsHeaders(event: APIGatewayProxyEvent): Record<string, string> {
  const origin = event.headers.origin;
  if (!origin || corsOrigins.length === 0) return {};
  if (corsOrigins.includes('*')) return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': exposed };
  return corsOrigins.includes(origin)
    ? { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': exposed, Vary: 'Origin' }
    : {};
}
const exposed = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replayed, ETag';

function finish(event: APIGatewayProxyEvent, invocation: Invocation, response: APIGatewayProxyResult): void {
  response.headers = { ...response.headers, ...corsHeaders(event), ...invocation.rateLimitHeaders, 'X-Request-Id': invocation.requestId };
  const durationMs = Math.round(performance.now() - invocation.startedAt);
  // The audit line below is the per-request record; this one is for debugging only.
  logger.debug('request', { status: response.statusCode, duration_ms: durationMs });
  audit(event, invocation, response.statusCode, durationMs);
  logger.resetKeys();
}

/** The request's audit record, once: whoever answers first (the stack, the deadline) records what the client saw. */
function audit(event: APIGatewayProxyEvent, invocation: Invocation, status: number, durationMs: number): void {
  const principal = invocation.principal;
  if (principal && !invocation.audited) {
    invocation.audited = true;
    const customerId = customerOf(principal);
    const call = {
      requestId: invocation.requestId,
      // A customer token is named by its customer (the actor `customer:<id>`), not as a key.
      keyId: customerId ? null : principal.keyId || null,
      keyPrefix: customerId ? null : principal.keyPrefix || null,
      customerId: customerId ?? null,
      route: invocation.route.id,
      changes: invocation.changes ?? [],
    };
    emitAudit({ accountId: principal.accountId, mode: principal.mode }, auditRecordOf(event, { ...call, status, durationMs }));
  }
}

export const requestScope = (route: RouteDefinition): Middleware => ({
  before: (request) => {
    const requestId = request.event.requestContext?.requestId || randomUUID();
    startInvocation(request.event, { requestId, startedAt: performance.now(), route });
    request.event.headers = lowerCaseHeaders(request.event.headers);
    logger.appendKeys({ request_id: requestId, route: route.id });
  },
  after: (request) => {
    const invocation = maybeInvocationOf(request.event);
    if (invocation && request.response) finish(request.event, invocation, request.response);
  },
  onError: async (request) => {
    const invocation = maybeInvocationOf(request.event) ?? { requestId: randomUUID(), startedAt: performance.now(), route };
    // Over the limit, the answer is the 429, whatever else went wrong meanwhile.
    const refusal = await admissionError(invocation);
    request.response = toErrorResult(refusal ?? request.error, invocation.requestId);
    finish(request.event, invocation, request.response);
  },
});

/** How long before a deadline a request still unanswered is answered (and recorded) with a 504. */
export const DEADLINE_MARGIN_MS = 500;
/** API Gateway stops waiting for a Lambda integration after 29 s (REST APIs) and answers 504 itself. */
export const GATEWAY_TIMEOUT_MS = 29_000;

type Run = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * Answers what the stack could not. Lambda stops a function at its timeout and runs nothing after
 * it, so without this a request that runs out of time would have no audit record and the client
 * API Gateway's bare error. A timer set from `context.getRemainingTimeInMillis()` answers a
 * request still unanswered DEADLINE_MARGIN_MS before the deadline with 504 `timeout` (the error
 * body, X-Request-Id, the rate-limit headers) and records that; what the work does afterwards
 * changes neither. A route that may run longer than API Gateway waits (imports with their own
 * timeout) is not cut short: when API Gateway's 29 s are nearly up, the record says 504 — what
 * the client gets from API Gateway — and the work finishes on its own.
 */
export function withDeadline(route: RouteDefinition, run: Run): Run {
  return async (event, context) => {
    const remaining = context?.getRemainingTimeInMillis?.();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<APIGatewayProxyResult>((resolve) => {
      if (!remaining) return;
      const received = event.requestContext?.requestTimeEpoch;
      const untilGateway = (received && received > 0 ? received : Date.now()) + GATEWAY_TIMEOUT_MS - Date.now();
      const answers = remaining <= untilGateway;
      timer = setTimeout(
        () => {
          // The request scope's state exists: its `before` runs as soon as the stack starts.
          const invocation = maybeInvocationOf(event);
          if (!invocation) return;
          // API Gateway answers the 504 itself; the work goes on: only the record.
          if (!answers) return audit(event, invocation, 504, Math.round(performance.now() - invocation.startedAt));
          const response = toErrorResult(
            new DomainError('timeout', 'Timed out; the request may or may not have taken effect'),
            invocation.requestId,
          );
          finish(event, invocation, response);
          resolve(response);
        },
        Math.max(0, Math.min(remaining, untilGateway) - DEADLINE_MARGIN_MS),
      );
    });
    try {
      return await Promise.race([run(event, context), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * Outermost middleware: request id (API Gateway's own, so it matches the access log), structured
 * logging, the one mapping of errors to the error body, response headers (X-Request-Id,
 * X-RateLimit-*), and the audit record of every call whose key is known — emitted as a log line
 * after the response is decided (shipped to the table off the request path, see audit/sink.ts).
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { emitAudit } from '#shared/audit/sink';
import { auditRecordOf } from '#shared/audit/stored';
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

async function finish(event: APIGatewayProxyEvent, invocation: Invocation, response: APIGatewayProxyResult): Promise<void> {
  response.headers = { ...response.headers, ...corsHeaders(event), ...invocation.rateLimitHeaders, 'X-Request-Id': invocation.requestId };
  const durationMs = Math.round(performance.now() - invocation.startedAt);
  // The audit line below is the per-request record; this one is for debugging only.
  logger.debug('request', { status: response.statusCode, duration_ms: durationMs });
  const principal = invocation.principal;
  if (principal) {
    const call = {
      requestId: invocation.requestId,
      keyId: principal.keyId || null,
      keyPrefix: principal.keyPrefix || null,
      route: invocation.route.id,
    };
    emitAudit(
      { accountId: principal.accountId, mode: principal.mode },
      auditRecordOf(event, { ...call, status: response.statusCode, durationMs }),
    );
  }
  logger.resetKeys();
}

export const requestScope = (route: RouteDefinition): Middleware => ({
  before: (request) => {
    const requestId = request.event.requestContext?.requestId || randomUUID();
    startInvocation(request.event, { requestId, startedAt: performance.now(), route });
    request.event.headers = lowerCaseHeaders(request.event.headers);
    logger.appendKeys({ request_id: requestId, route: route.id });
  },
  after: async (request) => {
    const invocation = maybeInvocationOf(request.event);
    if (invocation && request.response) await finish(request.event, invocation, request.response);
  },
  onError: async (request) => {
    const invocation = maybeInvocationOf(request.event) ?? { requestId: randomUUID(), startedAt: performance.now(), route };
    // Over the limit, the answer is the 429, whatever else went wrong meanwhile.
    const refusal = await admissionError(invocation);
    request.response = toErrorResult(refusal ?? request.error, invocation.requestId);
    await finish(request.event, invocation, request.response);
  },
});

/**
 * The middleware stack, declared once. Every handler is
 *   defineHandler(operation, async (request) => ok(await domainCall(...)))
 * with the operation (route id and schemas) taken from its resource's contract module. The stack:
 * request scope (ids, logs, errors, headers, audit) → guard (principal, IP allowlist, rate limit,
 * scopes) → JSON body → zod validation → idempotency (POST handlers opt in, so only their
 * bundles carry it) → the handler. Public documents use public-handler.ts instead.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Tenant } from '#shared/auth/principal';
import { routeById } from '#shared/routes';
import { toProxyResult, type HttpResult } from './envelope';
import { idempotencyKeyOf } from './idempotency-key';
import { admissionError, invocationOf } from './invocation';
import { guard } from './middleware/guard';
import { jsonBody } from './middleware/json-body';
import { requestScope } from './middleware/request-scope';
import type { Operation } from '#shared/schemas/operation';
import { buildRequest, type ApiRequest } from './request';

export type { ApiRequest, PublicRequest } from './request';

/** Runs a request's work under its Idempotency-Key (shared/http/idempotency.ts `idempotent()`). */
export type IdempotencyRunner = (
  tenant: Tenant,
  input: { key: string; request: { route: string; path: string; body: unknown } },
  context: Context | undefined,
  work: () => Promise<HttpResult>,
) => Promise<HttpResult>;

export interface HandlerOptions {
  /** Every POST handler passes `idempotent()` (a unit test checks it); other methods never need it. */
  idempotency?: IdempotencyRunner;
}

export function defineHandler<S extends Operation>(
  operation: S,
  fn: (request: ApiRequest<S>) => Promise<HttpResult>,
  options: HandlerOptions = {},
) {
  const route = routeById(operation.route);
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(requestScope(route)).use(guard(route));
  if (operation.body) stack.use(jsonBody());
  return stack.handler(async (event: APIGatewayProxyEvent, context: Context) => {
    const invocation = invocationOf(event);
    const principal = invocation.principal!;
    const tenant: Tenant = { accountId: principal.accountId, mode: principal.mode };
    const request = { ...buildRequest(event, operation, invocation), principal, tenant } as ApiRequest<S>;
    const key = options.idempotency ? idempotencyKeyOf(request.headers) : undefined;
    const result =
      key && options.idempotency
        ? await options.idempotency(
            tenant,
            { key, request: { route: route.id, path: event.path, body: request.body ?? null } },
            context,
            () => fn(request),
          )
        : await fn(request);
    // Reads ran concurrently with the rate-limit decision: a refusal still wins (onError maps it).
    const refusal = await admissionError(invocation);
    if (refusal) throw refusal;
    return toProxyResult(result, invocation.requestId);
  });
}

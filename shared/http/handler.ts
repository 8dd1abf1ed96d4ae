/**
 * The middleware stack, declared once. Every handler is
 *   defineHandler(operation, async (request) => ok(await domainCall(...)))
 * with the operation (route id and schemas) taken from its resource's contract module. The stack:
 * request scope (ids, logs, errors, headers, audit) → guard (principal, key kind, IP allowlist, rate limit,
 * scopes) → JSON body → zod validation → idempotency (POST handlers opt in, so only their
 * bundles carry it) → the handler. Public documents use public-handler.ts instead.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Principal, Tenant } from '#shared/auth/principal';
import type { IdempotencyCaller } from '#shared/db/keys';
import { clientOf, type QuotaOf } from '#shared/limits/quota';
import { toProxyResult, type HttpResult } from './envelope';
import { admissionError, invocationOf } from './invocation';
import { guard } from './middleware/guard';
import { jsonBody } from './middleware/json-body';
import { requestScope, withDeadline } from './middleware/request-scope';
import type { Operation } from '#shared/schemas/operation';
import { buildRequest, type ApiRequest } from './request';

export type { ApiRequest, PublicRequest } from './request';

/**
 * Runs a request's work under its Idempotency-Key, if it has one (shared/http/idempotency.ts
 * `idempotent()`; it reads the header, so bundles without it carry none of that either).
 */
export type IdempotencyRunner = (
  tenant: Tenant,
  input: {
    headers: Record<string, string>;
    caller: IdempotencyCaller;
    request: { route: string; path: string; body: unknown };
  },
  context: Context | undefined,
  work: () => Promise<HttpResult>,
) => Promise<HttpResult>;

/**
 * Whose records a request's Idempotency-Key names: a storefront visitor's are their own — per
 * publishable key and client address, as the rate limiter counts them (docs/platform.md).
 */
const idempotencyCallerOf = (principal: Principal, sourceIp: string | undefined): IdempotencyCaller =>
  principal.kind === 'publishable'
    ? { kind: principal.kind, keyId: principal.keyId, client: clientOf(sourceIp) }
    : { kind: principal.kind, ...(principal.customerId !== undefined ? { customerId: principal.customerId } : {}) };

export interface HandlerOptions {
  /** Every POST handler passes `idempotent()` (a unit test checks it); other methods never need it. */
  idempotency?: IdempotencyRunner;
  /**
   * Storefront routes (`storefront` in the route table) pass `storefrontQuota` (shared/limits/quota.ts):
   * publishable keys are counted per key and client there. Other routes count the account's quota.
   */
  quota?: QuotaOf;
  /**
   * A body that is not JSON (file uploads: `multipartBody()` from middleware/multipart-body.ts),
   * parsed in the JSON body's place; the handler validates what it leaves in `event.body`.
   */
  body?: middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;
}

export function defineHandler<S extends Operation>(
  operation: S,
  fn: (request: ApiRequest<S>) => Promise<HttpResult>,
  options: HandlerOptions = {},
) {
  const route = operation.route;
  if (Boolean(route.storefront) !== Boolean(options.quota)) {
    throw new Error(`${route.id}: a storefront route passes { quota: storefrontQuota }, and only a storefront route does`);
  }
  // The deadline is withDeadline's (request-scope.ts), which answers and records a request out of time; middy's own is off.
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult>({ timeoutEarlyInMillis: 0 })
    .use(requestScope(route))
    .use(guard(route, options.quota));
  if (operation.body) stack.use(jsonBody());
  if (options.body) stack.use(options.body);
  const run = stack.handler(async (event: APIGatewayProxyEvent, context: Context) => {
    const invocation = invocationOf(event);
    const principal = invocation.principal!;
    const tenant: Tenant = { accountId: principal.accountId, mode: principal.mode };
    const request = { ...buildRequest(event, operation, invocation), principal, tenant } as ApiRequest<S>;
    const result = options.idempotency
      ? await options.idempotency(
          tenant,
          {
            headers: request.headers,
            caller: idempotencyCallerOf(principal, event.requestContext?.identity?.sourceIp),
            request: { route: route.id, path: event.path, body: request.body ?? null },
          },
          context,
          () => fn(request),
        )
      : await fn(request);
    // Reads ran concurrently with the rate-limit decision: a refusal still wins (onError maps it).
    const refusal = await admissionError(invocation);
    if (refusal) throw refusal;
    return toProxyResult(result, invocation.requestId);
  });
  return withDeadline(route, run);
}

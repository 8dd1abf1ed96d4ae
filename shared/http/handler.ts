/**
 * The middleware stack, declared once. Every handler is
 *   defineHandler(operation, async (request) => ok(await domainCall(...)))
 * with the operation (route id and schemas) taken from its resource's contract module. The stack:
 * request scope (ids, logs, errors, headers, audit) → guard (principal, IP allowlist, rate limit,
 * scopes) → JSON body → zod validation → idempotency (POST with Idempotency-Key) → the handler.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { Principal, Tenant } from '../auth/principal';
import { routeById } from '../routes';
import { toProxyResult, type HttpResult } from './envelope';
import { ApiError } from './errors';
import { idempotencyKeyOf, runIdempotently } from './idempotency';
import { admissionError, invocationOf, type Invocation } from './invocation';
import { guard } from './middleware/guard';
import { jsonBody } from './middleware/json-body';
import { requestScope } from './middleware/request-scope';
import type { Operation } from './operation';
import { parseOrThrow } from './validation';

type AnySchema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

type Schemas = Pick<Operation, 'params' | 'query' | 'body'>;

export interface ApiRequest<S extends Schemas> {
  params: Out<S['params']>;
  query: Out<S['query']>;
  body: Out<S['body']>;
  principal: Principal;
  tenant: Tenant;
  requestId: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  event: APIGatewayProxyEvent;
}

export type PublicRequest<S extends Schemas> = Omit<ApiRequest<S>, 'principal' | 'tenant'>;

/** A malformed id in the path names no resource: 404, like an unknown one. */
function parseParams(schema: AnySchema, params: Record<string, string | undefined>) {
  const result = schema.safeParse(params);
  if (!result.success) throw new ApiError('not_found', `Nothing exists at ${Object.values(params).join('/')}`);
  return result.data;
}

function buildRequest<S extends Schemas>(event: APIGatewayProxyEvent, schemas: S, invocation: Invocation) {
  return {
    params: (schemas.params ? parseParams(schemas.params, event.pathParameters ?? {}) : undefined) as Out<S['params']>,
    query: (schemas.query ? parseOrThrow(schemas.query, event.queryStringParameters ?? {}, 'query string') : undefined) as Out<S['query']>,
    body: (schemas.body ? parseOrThrow(schemas.body, event.body, 'request body') : undefined) as Out<S['body']>,
    requestId: invocation.requestId,
    headers: event.headers as Record<string, string>,
    event,
  };
}

export function defineHandler<S extends Operation>(operation: S, fn: (request: ApiRequest<S>) => Promise<HttpResult>) {
  const route = routeById(operation.route);
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(requestScope(route)).use(guard(route));
  if (operation.body) stack.use(jsonBody());
  return stack.handler(async (event: APIGatewayProxyEvent, context: Context) => {
    const invocation = invocationOf(event);
    const principal = invocation.principal!;
    const tenant: Tenant = { accountId: principal.accountId, mode: principal.mode };
    const request = { ...buildRequest(event, operation, invocation), principal, tenant } as ApiRequest<S>;
    const key = route.method === 'POST' ? idempotencyKeyOf(request.headers) : undefined;
    const result = key
      ? await runIdempotently(tenant, { key, request: { route: route.id, path: event.path, body: request.body ?? null } }, context, () => fn(request))
      : await fn(request);
    // Reads ran concurrently with the rate-limit decision: a refusal still wins (onError maps it).
    const refusal = await admissionError(invocation);
    if (refusal) throw refusal;
    return toProxyResult(result, invocation.requestId);
  });
}

export function definePublicHandler<S extends Operation>(operation: S, fn: (request: PublicRequest<S>) => Promise<HttpResult>) {
  const route = routeById(operation.route);
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(requestScope(route))
    .handler(async (event: APIGatewayProxyEvent) => {
      const invocation = invocationOf(event);
      return toProxyResult(await fn(buildRequest(event, operation, invocation) as PublicRequest<S>), invocation.requestId);
    });
}

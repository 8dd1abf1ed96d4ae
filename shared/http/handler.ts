/**
 * The middleware stack, declared once. Every handler is
 *   defineHandler(routeId, schemas, async (request) => domainCall(...)) ;
 * the stack does request ids, logging, authentication context, scopes (from the route table),
 * JSON body parsing, zod validation and the mapping of errors to the error body.
 */
import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { principalFromContext, type Principal, type Tenant } from '../auth/principal';
import { missingScope } from '../auth/scopes';
import { logger } from '../logger';
import { routeById, type RouteDefinition } from '../routes';
import { toProxyResult, type HttpResult } from './envelope';
import { ApiError } from './errors';
import { toErrorResult } from './error-mapping';
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

interface Internal {
  requestId: string;
  startedAt: number;
  route: RouteDefinition;
  principal?: Principal;
}

type MiddyRequest = middy.Request<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

/**
 * Per-invocation state, keyed by the event object: middy does not pass `request.internal` to the
 * handler, and the local gateway runs many invocations concurrently in one process.
 */
const internals = new WeakMap<object, Internal>();
const internalOf = (request: MiddyRequest): Internal => internals.get(request.event) ?? ({} as Internal);

function lowerCaseHeaders(headers: APIGatewayProxyEvent['headers'] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

/** Request id: API Gateway's own, so that it matches the gateway's access log. */
const requestScope = (route: RouteDefinition): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: (request) => {
    const requestId = request.event.requestContext?.requestId || randomUUID();
    internals.set(request.event, { requestId, startedAt: performance.now(), route });
    request.event.headers = lowerCaseHeaders(request.event.headers);
    logger.appendKeys({ request_id: requestId, route: route.id });
  },
  after: (request) => {
    const { requestId, startedAt } = internalOf(request);
    logger.info('request', { status: request.response?.statusCode, duration_ms: Math.round(performance.now() - startedAt) });
    if (request.response) request.response.headers = { ...request.response.headers, 'X-Request-Id': requestId };
    logger.resetKeys();
  },
  onError: (request) => {
    const internal = internalOf(request);
    const requestId = internal.requestId ?? randomUUID();
    request.response = toErrorResult(request.error, requestId);
    logger.info('request', { status: request.response.statusCode, duration_ms: Math.round(performance.now() - (internal.startedAt ?? 0)) });
    logger.resetKeys();
  },
});

/** Principal from the authorizer context; scopes are checked here on every request, never from a cached policy. */
const authorize = (route: RouteDefinition): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: (request) => {
    const principal = principalFromContext(request.event.requestContext?.authorizer);
    if (!principal) throw new ApiError('unauthorized', 'A valid API key is required: send Authorization: Bearer <key>');
    const missing = missingScope(principal.scopes, route.scopes);
    if (missing) {
      throw new ApiError('insufficient_scope', `This key lacks the scope ${missing}`, [{ field: 'scope', message: `requires ${missing}` }]);
    }
    internalOf(request).principal = principal;
    logger.appendKeys({ account_id: principal.accountId, mode: principal.mode, key_prefix: principal.keyPrefix });
  },
});

/**
 * An empty body is treated as `{}` (so a missing body is a 422 naming required fields, not a 400);
 * a non-empty one must be JSON.
 */
const jsonBody = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => {
  const parser = httpJsonBodyParser();
  return {
    before: async (request) => {
      const { body } = request.event;
      if (body === null || body === undefined || body.trim() === '') {
        (request.event as { body: unknown }).body = {};
        return;
      }
      await parser.before!(request as never);
    },
  };
};

/** A malformed id in the path names no resource: 404, like an unknown one. */
function parseParams(schema: AnySchema, params: Record<string, string | undefined>) {
  const result = schema.safeParse(params);
  if (!result.success) throw new ApiError('not_found', `Nothing exists at ${Object.values(params).join('/')}`);
  return result.data;
}

function buildRequest<S extends Schemas>(event: APIGatewayProxyEvent, schemas: S, internal: Internal) {
  return {
    params: (schemas.params ? parseParams(schemas.params, event.pathParameters ?? {}) : undefined) as Out<S['params']>,
    query: (schemas.query ? parseOrThrow(schemas.query, event.queryStringParameters ?? {}, 'query string') : undefined) as Out<S['query']>,
    body: (schemas.body ? parseOrThrow(schemas.body, event.body, 'request body') : undefined) as Out<S['body']>,
    requestId: internal.requestId,
    headers: event.headers as Record<string, string>,
    event,
  };
}

export function defineHandler<S extends Operation>(schemas: S, fn: (request: ApiRequest<S>) => Promise<HttpResult>) {
  const route = routeById(schemas.route);
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(requestScope(route)).use(authorize(route));
  if (schemas.body) stack.use(jsonBody());
  return stack.handler(async (event) => {
    const internal = internals.get(event)!;
    const principal = internal.principal!;
    const request = { ...buildRequest(event, schemas, internal), principal, tenant: { accountId: principal.accountId, mode: principal.mode } };
    return toProxyResult(await fn(request as ApiRequest<S>), internal.requestId);
  });
}

export function definePublicHandler<S extends Operation>(schemas: S, fn: (request: PublicRequest<S>) => Promise<HttpResult>) {
  const route = routeById(schemas.route);
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(requestScope(route))
    .handler(async (event) => {
      const internal = internals.get(event)!;
      return toProxyResult(await fn(buildRequest(event, schemas, internal) as PublicRequest<S>), internal.requestId);
    });
}

/**
 * Public documents (no key): only the request scope — ids, logs, errors — and, for an operation
 * with a JSON body (a proof link's decision), the JSON body parser. Kept apart from handler.ts so
 * these bundles carry no limiter or guard.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { toProxyResult, type HttpResult } from './envelope';
import { invocationOf } from './invocation';
import { jsonBody } from './middleware/json-body';
import { requestScope } from './middleware/request-scope';
import type { Operation } from '#shared/schemas/operation';
import { buildRequest, type PublicRequest } from './request';

export function definePublicHandler<S extends Operation>(operation: S, fn: (request: PublicRequest<S>) => Promise<HttpResult>) {
  const route = operation.route;
  const stack = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().use(requestScope(route));
  if (operation.body) stack.use(jsonBody());
  return stack.handler(async (event: APIGatewayProxyEvent) => {
    const invocation = invocationOf(event);
    return toProxyResult(await fn(buildRequest(event, operation, invocation)), invocation.requestId);
  });
}

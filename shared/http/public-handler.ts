/**
 * Public documents (no key): only the request scope — ids, logs, errors. Kept apart from
 * handler.ts so these bundles carry no DynamoDB client, limiter or guard.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { toProxyResult, type HttpResult } from './envelope';
import { invocationOf } from './invocation';
import { requestScope } from './middleware/request-scope';
import type { Operation } from '#shared/schemas/operation';
import { buildRequest, type PublicRequest } from './request';

export function definePublicHandler<S extends Operation>(operation: S, fn: (request: PublicRequest<S>) => Promise<HttpResult>) {
  const route = operation.route;
  return middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(requestScope(route))
    .handler(async (event: APIGatewayProxyEvent) => {
      const invocation = invocationOf(event);
      return toProxyResult(await fn(buildRequest(event, operation, invocation)), invocation.requestId);
    });
}

/** The typed request a handler receives, built from the proxy event and the operation's schemas. */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { z } from 'zod';
import type { Principal, Tenant } from '#shared/auth/principal';
import { DomainError } from '#shared/errors';
import type { Invocation } from './invocation';
import type { Operation } from '#shared/schemas/operation';
import { parseOrThrow } from './validation';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type Schemas = Pick<Operation, 'params' | 'query' | 'body' | 'customerBody'>;

export interface ApiRequest<S extends Schemas> {
  params: Out<S['params']>;
  query: Out<S['query']>;
  /** `customerBody`'s output when a customer token called a route that has one. */
  body: S['customerBody'] extends z.ZodType ? Out<S['body']> | Out<S['customerBody']> : Out<S['body']>;
  principal: Principal;
  tenant: Tenant;
  requestId: string;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  event: APIGatewayProxyEvent;
}

export type PublicRequest<S extends Schemas> = Omit<ApiRequest<S>, 'principal' | 'tenant'>;

/** A malformed id in the path names no resource: 404, like an unknown one. */
function parseParams(schema: z.ZodType, params: Record<string, string | undefined>) {
  const result = schema.safeParse(params);
  if (!result.success) throw new DomainError('not_found', `Nothing exists at ${Object.values(params).join('/')}`);
  return result.data;
}

const bodySchemaFor = (schemas: Schemas, invocation: Invocation): z.ZodType =>
  invocation.principal?.kind === 'customer' && schemas.customerBody ? schemas.customerBody : schemas.body!;

export function buildRequest<S extends Schemas>(event: APIGatewayProxyEvent, schemas: S, invocation: Invocation): PublicRequest<S> {
  return {
    params: (schemas.params ? parseParams(schemas.params, event.pathParameters ?? {}) : undefined) as Out<S['params']>,
    query: (schemas.query ? parseOrThrow(schemas.query, event.queryStringParameters ?? {}, 'query string') : undefined) as Out<S['query']>,
    body: (schemas.body ? parseOrThrow(bodySchemaFor(schemas, invocation), event.body, 'request body') : undefined) as Out<S['body']>,
    requestId: invocation.requestId,
    headers: event.headers as Record<string, string>,
    event,
  };
}

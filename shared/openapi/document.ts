/**
 * The OpenAPI 3.0.3 document, generated from the route table and the zod schemas of the
 * contracts — never written by hand. Served at GET /v1/openapi.json and written by `npm run openapi`.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { ErrorSchema } from '#shared/schemas/common';
import { PaginationSchema } from '#shared/schemas/pagination';
import { routeDocs } from '#shared/route-docs';
import { routesById, pathsOf } from '#shared/routes';
import { allOperations } from './contracts';
import { declaredEvents } from './events';

const commonErrors: Record<number, string> = {
  400: 'Malformed JSON',
  401: 'Missing, unknown or revoked API key',
  403: 'The key lacks a scope, or the source address is not allowed',
  404: 'No such resource for this account and mode',
  409: 'Conflict with the current state',
  412: 'If-Match names a version the resource no longer has; nothing changed',
  413: 'Request body too large',
  415: 'Unsupported Content-Type',
  422: 'Validation failed; details name each field',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error (no details leave the service)',
};

export function buildOpenApiDocument(serverUrl = 'https://api.example.com') {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Secret keys sk_test_… / sk_live_…, publishable keys pk_test_… / pk_live_…',
  });

  for (const operation of allOperations) {
    const route = routesById.get(operation.route);
    if (!route) throw new Error(`Operation for unknown route ${operation.route}`);
    const data = operation.list ? z.array(operation.response) : operation.response;
    const envelope =
      operation.envelope === false
        ? operation.response
        : z.object({ success: z.literal(true), data, ...(operation.list ? { pagination: PaginationSchema } : {}) });
    const errorStatuses =
      route.auth === 'none'
        ? [500]
        : [
            401,
            403,
            429,
            500,
            ...(operation.body ? [400, 422] : []),
            ...(operation.query ? [422] : []),
            ...(operation.rawBody ? [413, 415, 422] : []),
            ...(operation.errors ?? []),
          ];
    const responses: RouteConfig['responses'] = {
      [operation.status ?? 200]: { description: 'Success', content: { 'application/json': { schema: envelope } } },
    };
    for (const status of [...new Set(errorStatuses)].sort()) {
      responses[status] = { description: commonErrors[status] ?? 'Error', content: { 'application/json': { schema: ErrorSchema } } };
    }
    for (const path of pathsOf(route)) {
      registry.registerPath({
        method: route.method.toLowerCase() as RouteConfig['method'],
        path,
        operationId: path === route.path ? route.id : `${route.id}.alias`,
        summary: routeDocs[route.id]?.summary,
        tags: [routeDocs[route.id]?.tag ?? 'Other'],
        security: route.auth === 'none' ? [] : [{ apiKey: [] }],
        description: route.scopes.length ? `Requires scope${route.scopes.length > 1 ? 's' : ''}: ${route.scopes.join(', ')}` : undefined,
        request: {
          ...(operation.params ? { params: operation.params as never } : {}),
          ...(operation.query ? { query: operation.query as never } : {}),
          ...(operation.body ? { body: { required: true, content: { 'application/json': { schema: operation.body } } } } : {}),
          ...(operation.rawBody
            ? {
                body: {
                  required: true,
                  description: operation.rawBody.description,
                  content: { [operation.rawBody.contentType]: { schema: operation.rawBody.schema } },
                },
              }
            : {}),
        },
        responses,
      });
    }
  }

  // Webhook payloads: one component per declared event kind, the delivery body with its `data`.
  const eventSchemas = declaredEvents.map((definition) =>
    z
      .object({
        id: z.string().meta({
          description: 'The delivery id: the same across retries, so receivers can deduplicate on it',
          example: 'wh_0dYc3K2a8Xw1kZp4Qr7Tn2Lm',
        }),
        event_id: z.string(),
        event: z.literal(definition.kind),
        timestamp: z.string().meta({ description: "The event's creation time (ISO 8601 UTC)" }),
        mode: z.enum(['test', 'live']),
        test: z.literal(true).optional().meta({ description: 'Only on sample events sent by POST /v1/webhooks/{id}/test' }),
        data: definition.payload,
      })
      .meta({
        id: `WebhookEvent.${definition.kind}`,
        description: `The body POSTed for ${definition.kind} (signed: see docs/webhooks.md)`,
      }),
  );

  return new OpenApiGeneratorV3([
    ...registry.definitions,
    ...eventSchemas.map((schema) => ({ type: 'schema' as const, schema })),
  ]).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Print Shop API',
      version: '1.1.0',
      description: 'Orders, customers, products and pricing, production, invoices and webhooks for print shops.',
    },
    servers: [{ url: serverUrl }],
  });
}

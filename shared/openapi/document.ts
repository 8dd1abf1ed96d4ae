/**
 * The OpenAPI 3.0.3 document, generated from the route table and the zod schemas of the
 * contracts — never written by hand. Served at GET /v1/openapi.json and written by `npm run openapi`.
 */
import { OpenAPIRegistry, OpenApiGeneratorV3, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { ErrorSchema } from '#shared/schemas/common';
import { PaginationSchema } from '#shared/schemas/pagination';
import { pathsOf, webhooksCreate } from '#shared/routes';
import { allOperations } from './contracts';
import { declaredEvents } from './events';
import { requestHeadersOf, responseHeaderObjects, takesIdempotencyKey } from './headers';
import { webhookCallbacks } from './webhook-callbacks';

const commonErrors: Record<number, string> = {
  400: 'Malformed JSON, or a path parameter whose percent-encoding does not decode (API Gateway refuses it before any key is read)',
  401: 'Missing, unknown or revoked API key',
  403: 'The key lacks a scope, or the source address is not allowed',
  404: 'No such resource for this account and mode',
  409: 'Conflict with the current state',
  412: 'If-Match names a version the resource no longer has; nothing changed',
  413: "Request body too large (above API Gateway's 10 MB, or the route's own limit)",
  415: 'Unsupported Content-Type',
  422: 'Validation failed; details name each field',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error (no details leave the service)',
  502: 'A dependency (the mail service, a carrier) refused or failed; nothing was done',
  503: "The stage is missing an operator's setup step, or (with Retry-After) too many requests queue for the same number sequence; nothing was done",
};

const aliasOperationId = (routeId: string, index: number): string => (index === 0 ? `${routeId}.alias` : `${routeId}.alias${index + 1}`);

/** The component every webhook delivery body is: one of the `WebhookEvent.<kind>` components. */
const WEBHOOK_EVENT = 'WebhookEvent';

export { serverUrlOf } from '#shared/http/server-url';

/** How a route open to customer tokens keeps to the customer (the route table's `customer` flag). */
const customerAccess: Record<string, string> = {
  catalogue: '. Also a customer access token (the active catalogue).',
  own: ". Also a customer access token: the customer's own orders only (another's is 404; ordering for another is 403).",
  path: ". Also a customer access token, for the customer's own id only (another's is 404).",
};

export function buildOpenApiDocument(serverUrl = 'https://api.example.com') {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Secret keys sk_test_… / sk_live_…, publishable keys pk_test_… / pk_live_…',
  });
  registry.registerComponent('securitySchemes', 'customerToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      "A customer's access token from POST /v1/auth/login or /v1/auth/refresh (ES256, 15 minutes; keys at /v1/auth/jwks.json). " +
      'It acts for its customer only: their account, their orders and addresses, the catalogue.',
  });

  for (const operation of allOperations) {
    const route = operation.route;
    const data = operation.list ? z.array(operation.response) : operation.response;
    const envelope =
      operation.envelope === false
        ? operation.response
        : z.object({ success: z.literal(true), data, ...(operation.list ? { pagination: PaginationSchema } : {}) });
    // A public route answers only what it declares (the carrier callback its 401) and the 500 any route may.
    const errorStatuses = [
      500,
      ...(route.auth === 'none' ? [] : [401, 403, 429]),
      // API Gateway's own answers (local-aws/gateway.ts does the same): a path parameter it cannot decode, a body above 10 MB.
      ...(route.path.includes('{') ? [400] : []),
      ...(operation.body || operation.rawBody ? [413] : []),
      // A JSON body: one that does not parse is 400, another Content-Type 415 (shared/http/middleware/json-body.ts).
      ...(operation.body ? [400, 415, 422] : []),
      ...(operation.query ? [422] : []),
      ...(operation.rawBody && route.auth === 'key' ? [413, 415, 422] : []),
      // A malformed Idempotency-Key is 422; a key reused for another request, or still running, 409.
      ...(takesIdempotencyKey(operation) ? [409, 422] : []),
      ...(operation.ifMatch ? [412] : []),
      // A stage missing its setup step: no signing keys is 503 (shared/customer-auth/key-store.ts); mail SES refuses, 502 (mail/send.ts).
      ...(route.signsTokens ? [503] : []),
      ...(route.mail ? [502] : []),
      ...(operation.errors ?? []),
    ];
    const success = (description: string): ResponseConfig => ({ description, content: { 'application/json': { schema: envelope } } });
    const responses: Record<number, ResponseConfig> = { [operation.status ?? 200]: success('Success') };
    if (operation.accepted) responses[202] = success(operation.accepted);
    if (operation.repeated) responses[200] = success(operation.repeated);
    if (operation.documents) {
      const { contentTypes, description, redirects } = operation.documents;
      responses[200] = {
        description,
        content: {
          ...Object.fromEntries(
            contentTypes.map(({ type, binary }) => [type, { schema: binary ? z.string().meta({ format: 'binary' }) : z.string() }]),
          ),
          'application/json': { schema: envelope },
        },
      };
      if (redirects) responses[302] = { description: redirects };
    }
    for (const status of [...new Set(errorStatuses)].sort()) {
      responses[status] = { description: commonErrors[status] ?? 'Error', content: { 'application/json': { schema: ErrorSchema } } };
    }
    for (const [status, response] of Object.entries(responses)) response.headers = responseHeaderObjects(operation, Number(status));
    const headers = requestHeadersOf(operation);
    const scopes =
      route.customer === 'self'
        ? "The signed-in customer's own: a customer access token, no API key."
        : route.scopes.length
          ? `Requires scope${route.scopes.length > 1 ? 's' : ''}: ${route.scopes.join(', ')}${route.customer ? customerAccess[route.customer] : ''}` +
            (route.secretScopes ? `; a secret key also ${route.secretScopes.join(', ')}` : '')
          : undefined;
    const security: Record<string, string[]>[] =
      route.auth === 'none'
        ? []
        : route.customer === 'self'
          ? [{ customerToken: [] }]
          : route.customer
            ? [{ apiKey: [] }, { customerToken: [] }]
            : [{ apiKey: [] }];
    for (const path of pathsOf(route)) {
      const aliasIndex = (route.aliases ?? []).indexOf(path);
      const canonical = `${route.method} ${route.path}`;
      // A spec alias is the same operation on another path: marked deprecated and pointing at the
      // canonical path (`x-alias-of`), so clients and generators use the /v1 one.
      const alias =
        aliasIndex < 0
          ? {}
          : {
              deprecated: true,
              'x-alias-of': canonical,
              description: `Alias of \`${canonical}\` (the path the spec shows): the same handler, scopes and answers. Use the canonical path.${scopes ? ` ${scopes}` : ''}`,
            };
      registry.registerPath({
        method: route.method.toLowerCase() as RouteConfig['method'],
        path,
        operationId: aliasIndex < 0 ? route.id : aliasOperationId(route.id, aliasIndex),
        summary: route.summary,
        tags: [route.tag],
        security,
        description: scopes,
        ...alias,
        // What the registered URL then receives: the webhook deliveries (./webhook-callbacks.ts).
        ...(route === webhooksCreate ? { callbacks: webhookCallbacks(WEBHOOK_EVENT) } : {}),
        request: {
          ...(operation.params ? { params: operation.params as never } : {}),
          ...(operation.query ? { query: operation.query as never } : {}),
          ...(headers ? { headers } : {}),
          ...(operation.body
            ? {
                body: {
                  required: true,
                  // With a customer access token the route takes its customer body instead (shared/schemas/operation.ts).
                  content: {
                    'application/json': {
                      schema: operation.customerBody ? z.union([operation.body, operation.customerBody]) : operation.body,
                    },
                  },
                },
              }
            : {}),
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

  // Every delivery body, discriminated by `event`: the callbacks of POST /v1/webhooks reference it.
  const webhookEvent = z.discriminatedUnion('event', eventSchemas as [(typeof eventSchemas)[number], ...typeof eventSchemas]).meta({
    id: WEBHOOK_EVENT,
    description: "The body POSTed to a webhook's URL: one of the WebhookEvent.<kind> bodies, told apart by `event`",
  });

  // A named object that is also used as nullable must be generated as itself first: the generator
  // names a component after its first use, and a nullable first use would make it nullable.
  const schemas = [
    ...allOperations.flatMap((operation) => [operation.params, operation.query, operation.body, operation.response]),
    ...eventSchemas,
  ];
  const nullableTargets = [...new Set(schemas.flatMap((schema) => (schema ? namedNullables(schema) : [])))];
  const document = new OpenApiGeneratorV3([
    ...nullableTargets.map((schema) => ({ type: 'schema' as const, schema })),
    ...registry.definitions,
    ...eventSchemas.map((schema) => ({ type: 'schema' as const, schema })),
    { type: 'schema' as const, schema: webhookEvent },
  ]).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Print Shop API',
      version: '1.1.0',
      description: 'Orders, customers, products and pricing, production, invoices and webhooks for print shops.',
    },
    servers: [{ url: serverUrl }],
  });
  return withNonEmptyBodies(withTypedNullables(document));
}

/** The named schemas (`.meta({ id })`) that `schema` uses as nullable anywhere inside it, innermost first. */
function namedNullables(schema: z.ZodType): z.ZodType[] {
  const found: z.ZodType[] = [];
  const seen = { true: new Set<z.ZodType>(), false: new Set<z.ZodType>() };
  const visit = (current: z.ZodType | undefined, nullable: boolean): void => {
    if (!current || seen[`${nullable}`].has(current)) return;
    seen[`${nullable}`].add(current);
    const def = current._zod.def as unknown as Record<string, unknown> & { type: string };
    const children = (value: unknown): z.ZodType[] =>
      (Array.isArray(value)
        ? value
        : value && typeof value === 'object' && !(value instanceof z.ZodType)
          ? Object.values(value)
          : [value]
      ).filter((child): child is z.ZodType => child instanceof z.ZodType);
    const wrapped = def.type === 'nullable' || (nullable && ['optional', 'default', 'prefault', 'readonly'].includes(def.type));
    for (const key of ['innerType', 'shape', 'element', 'options', 'keyType', 'valueType', 'in', 'out', 'left', 'right']) {
      for (const child of children(def[key])) visit(child, wrapped && key === 'innerType');
    }
    // After its children: a named nullable inside a named nullable (an address in a company) is
    // generated first, so the outer one's first use of it is not what names it.
    if (nullable && z.globalRegistry.get(current)?.id) found.push(current);
  };
  visit(schema, false);
  return found;
}

type Json = Record<string, unknown>;

/**
 * Whether the server refuses `{}` as this body: the schema's own refinement of the whole object
 * fails on it ("send at least one of …": an issue at the root, not at a field), as the update
 * schemas of orders, quotes, the account, a customer's profile, production jobs and machines and
 * cart lines do.
 */
export function refusesEmptyBody(schema: z.ZodType | undefined): boolean {
  if (!schema) return false;
  try {
    const result = schema.safeParse({});
    return !result.success && result.error.issues.some((issue) => issue.path.length === 0);
  } catch {
    return false; // an asynchronous check: not one of these refinements
  }
}

/**
 * A body the server refuses as empty says so: `minProperties: 1` on its schema — the component it
 * names, or the operation's inline schema (its member of the union with a customer body) — so
 * clients and generators refuse `{}` before sending it. Read from the schemas themselves: an
 * update schema given that refinement later is documented with no list to keep.
 */
function withNonEmptyBodies<D extends { components?: { schemas?: Json } }>(document: D): D {
  const components = (document.components?.schemas ?? {}) as Record<string, Json>;
  const paths = (document as { paths?: Record<string, Record<string, Json>> }).paths ?? {};
  for (const operation of allOperations) {
    const bodies = operation.customerBody ? [operation.body, operation.customerBody] : [operation.body];
    bodies.forEach((body, index) => {
      if (!body || !refusesEmptyBody(body)) return;
      const id = z.globalRegistry.get(body)?.id;
      if (id && components[id]) {
        components[id].minProperties = 1;
        return;
      }
      for (const path of pathsOf(operation.route)) {
        const requestBody = paths[path]?.[operation.route.method.toLowerCase()]?.requestBody as
          { content: Record<string, { schema: Json }> } | undefined;
        const schema = requestBody?.content['application/json']?.schema;
        const own = bodies.length > 1 ? ((schema?.anyOf ?? schema?.oneOf) as Json[] | undefined)?.[index] : schema;
        if (own && !('$ref' in own)) own.minProperties = 1;
      }
    });
  }
  return document;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isBareNullable = (value: unknown): boolean => isObject(value) && Object.keys(value).length === 1 && value.nullable === true;

/**
 * OpenAPI 3.0 has no null type, and `nullable` is valid only beside a `type`. The generator writes
 * three shapes without one, rewritten here (so the schemas — and the Lambda bundles that build
 * them — stay as they are):
 *
 * - `anyOf` / `allOf` `[X, { nullable: true }]` (X or null) → `{ type, nullable: true, allOf: [X] }`
 *   for a reference (the type of the component it names), or X itself made nullable;
 * - `{ nullable: true }` alone (any value, `z.unknown()`) → `{}`;
 * - an object with no listed properties (free-form) gets `additionalProperties: {}`, so that its
 *   example is valid against it.
 */
function withTypedNullables<D extends { components?: { schemas?: Json } }>(document: D): D {
  const components = (document.components?.schemas ?? {}) as Record<string, Json>;
  const typeOf = (ref: string): unknown => components[ref.split('/').pop()!]?.type ?? 'object';
  const fix = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(fix);
    if (!isObject(value)) return value;
    if (isBareNullable(value)) return {};
    // Examples are data, not schemas: left as they are.
    const out: Json = Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [name, /^examples?$/.test(name) ? inner : fix(inner)]),
    );
    for (const combinator of ['anyOf', 'allOf', 'oneOf'] as const) {
      const list = value[combinator];
      if (!Array.isArray(list) || list.length !== 2 || !isBareNullable(list[1])) continue;
      const [inner] = list as [Json];
      delete out[combinator];
      return typeof inner.$ref === 'string'
        ? { type: typeOf(inner.$ref), ...out, nullable: true, allOf: [inner] }
        : { ...(fix(inner) as Json), ...out, nullable: true };
    }
    if (out.type === 'object' && isObject(out.properties) && Object.keys(out.properties).length === 0 && !('additionalProperties' in out)) {
      out.additionalProperties = {};
    }
    return out;
  };
  return fix(document) as D;
}

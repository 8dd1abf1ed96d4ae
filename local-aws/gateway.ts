/**
 * The local API Gateway: turns HTTP requests into API Gateway REST proxy events (v1), runs the
 * REQUEST authorizer and the route's handler — both found through the route table, exactly the
 * modules CDK deploys — and writes the handler's result back. 404 for unknown paths, 405 for a
 * known path with the wrong method, 413 above API Gateway's 10 MB payload limit, 400 for a path
 * parameter whose percent-encoding does not decode (API Gateway refuses those before any
 * authorizer runs; its DEFAULT_4XX response carries the code `bad_request`, infra/gateway-responses.ts).
 * Like API Gateway it tells the handler how the client connected (`X-Forwarded-Proto`,
 * `X-Forwarded-Port`, `requestContext.domainName`): plain http here.
 */
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorBody } from '#shared/http/envelope';
import type { ErrorCode } from '#shared/errors';
import { binaryMediaTypes } from '#shared/resources';
import { pathsOf, routes as routeTable, type RouteDefinition } from '#shared/routes';
import { adminStatic } from './admin-static';
import { startAuditShipping } from './audit-shipping';
import { countCalls, installCallCounter, recordRouteCalls } from './dynamodb-calls';
import { lambdaContext } from './lambda-context';

const MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * A synchronous Lambda invocation takes at most this much event JSON; API Gateway answers 413 for a
 * request whose event is larger (a 5 MB upload is 6.7 MB of base64), before any function runs.
 */
export const MAX_LAMBDA_EVENT_BYTES = 6 * 1024 * 1024;
const projectRoot = resolve(import.meta.dirname, '..');
/** API Gateway's binary media types as patterns (a wildcard subtype matches any subtype). */
const binaryTypes = binaryMediaTypes.map((type) => new RegExp(`^${type.replace(/[.+]/g, '\\$&').replace('*', '[^;,]*')}(\\s*[;,]|$)`));
const isBinaryType = (type: string): boolean => binaryTypes.some((pattern) => pattern.test(type.trim()));

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

interface Mounted {
  route: RouteDefinition;
  template: string;
  pattern: RegExp;
  params: string[];
}

function mount(routes: readonly RouteDefinition[]): Mounted[] {
  return routes.flatMap((route) =>
    pathsOf(route).map((template) => {
      const params: string[] = [];
      // Templates hold only literal segments and `{name}` parameters (no regex characters).
      const source = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
        params.push(name);
        return '([^/]+)';
      });
      return { route, template, pattern: new RegExp(`^${source}/?$`), params };
    }),
  );
}

const moduleCache = new Map<string, Promise<Record<string, unknown>>>();
const load = (file: string) => {
  let loaded = moduleCache.get(file);
  if (!loaded) {
    loaded = import(pathToFileURL(resolve(projectRoot, file)).href) as Promise<Record<string, unknown>>;
    moduleCache.set(file, loaded);
  }
  return loaded;
};

function sendError(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId, ...headers });
  res.end(JSON.stringify(errorBody(code, message, requestId)));
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return 'too_large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Headers API Gateway sets itself (a client's own are replaced): how the client connected to the edge. */
const EDGE_HEADERS = new Set(['x-forwarded-proto', 'x-forwarded-port']);

/**
 * Name → values, in order, as the event's single-value map (values joined by `join`, or the last
 * one) and its multi-value map. Built in a Map and turned into objects with Object.fromEntries,
 * which defines keys: a client's `__proto__` or `constructor` is a name like any other, never an
 * assignment to an object's prototype or a lookup of Object's own properties.
 */
function valueMaps(pairs: Iterable<[string, string]>, join?: string) {
  const values = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  }
  const entries = [...values];
  return {
    single: Object.fromEntries(entries.map(([name, list]) => [name, join === undefined ? list.at(-1)! : list.join(join)])),
    multi: Object.fromEntries(entries),
  };
}

function splitHeaders(req: IncomingMessage) {
  const pairs: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!EDGE_HEADERS.has(name.toLowerCase())) pairs.push([name, req.rawHeaders[i + 1]!]);
  }
  pairs.push(['X-Forwarded-Proto', 'http'], ['X-Forwarded-Port', String(req.socket.localPort ?? '')]);
  const { single: headers, multi } = valueMaps(pairs, ',');
  return { headers, multi };
}

/** The decoded path parameters, or undefined when one is not valid percent-encoded UTF-8 (`%ff`, `%`). */
function decodeParams(names: string[], match: RegExpExecArray): Record<string, string> | undefined {
  try {
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
  } catch {
    return undefined;
  }
}

function splitQuery(url: URL) {
  if ([...url.searchParams.keys()].length === 0) return { query: null, multi: null };
  // API Gateway keeps the last value in the single-value map.
  const { single: query, multi } = valueMaps(url.searchParams);
  return { query, multi };
}

export interface GatewayOptions {
  port: number;
  host?: string;
  routes?: readonly RouteDefinition[];
  authorizerModule?: string;
  /** Serve the built admin panel from this folder under /admin (see admin-static.ts). */
  adminDir?: string;
  /**
   * Add `X-Local-DynamoDB-Calls` / `X-Local-DynamoDB-Commands` to every response. Default: the
   * LOCAL_DEBUG_HEADERS environment variable (`1`/`true`/`yes`/`on`); the tests turn it on.
   */
  debugHeaders?: boolean;
}

/** LOCAL_DEBUG_HEADERS=1 (or true, yes, on) asks for the local debugging headers. */
export const debugHeadersFromEnv = (): boolean => /^(1|true|yes|on)$/i.test(process.env.LOCAL_DEBUG_HEADERS?.trim() ?? '');

export interface Gateway {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const mounted = mount(options.routes ?? routeTable);
  installCallCounter();
  // Handlers run in this process: its stdout is their log stream, and audit lines ship from it.
  const auditShipping = startAuditShipping();
  const authorizerModule = options.authorizerModule ?? 'functions/authorizer.ts';
  // The panel may upload to where the handlers' presigned URLs point: the S3 emulator (AWS_ENDPOINT_URL_S3).
  const s3Endpoint = process.env.AWS_ENDPOINT_URL_S3;
  const admin = options.adminDir
    ? adminStatic(options.adminDir, s3Endpoint ? { uploadOrigin: new URL(s3Endpoint).origin } : {})
    : undefined;
  const debugHeaders = options.debugHeaders ?? debugHeadersFromEnv();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('local gateway error', error);
      if (!res.headersSent) sendError(res, 500, 'internal_error', 'Internal server error', randomUUID());
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const requestId = randomUUID();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = (req.method ?? 'GET').toUpperCase();
    if (admin?.(req, res, url)) return;
    const matches = mounted.map((m) => ({ m, match: m.pattern.exec(url.pathname) })).filter((x) => x.match);
    if (matches.length === 0) return sendError(res, 404, 'not_found', `No route for ${url.pathname}`, requestId);
    const hit = matches.find((x) => x.m.route.method === method);
    if (!hit) {
      const allow = [...new Set(matches.map((x) => x.m.route.method))].join(', ');
      if (method === 'OPTIONS') {
        res.writeHead(204, {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': `${allow}, OPTIONS`,
          'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, If-Match',
          'X-Request-Id': requestId,
        });
        return res.end();
      }
      return sendError(res, 405, 'method_not_allowed', `${method} is not allowed on ${url.pathname}; allowed: ${allow}`, requestId, {
        Allow: allow,
      });
    }
    const { m, match } = hit as { m: Mounted; match: RegExpExecArray };
    const decoded = m.params.length ? decodeParams(m.params, match) : undefined;
    if (m.params.length && !decoded) {
      req.resume(); // the body is not read: drain it so the connection stays usable
      return sendError(res, 400, 'bad_request', `The path ${url.pathname} is not valid percent-encoded UTF-8`, requestId);
    }
    const raw = await readBody(req);
    if (raw === 'too_large') return sendError(res, 413, 'payload_too_large', 'The request body exceeds 10 MB', requestId);

    const { headers, multi } = splitHeaders(req);
    const { query, multi: multiQuery } = splitQuery(url);
    const pathParameters = decoded ?? null;
    const contentType = req.headers['content-type'] ?? '';
    const binary = isBinaryType(contentType);
    const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    const requestContext = {
      accountId: '000000000000',
      apiId: 'local',
      resourceId: m.template,
      stage: 'local',
      requestId,
      requestTimeEpoch: Date.now(),
      protocol: `HTTP/${req.httpVersion}`,
      httpMethod: method,
      path: url.pathname,
      resourcePath: m.template,
      domainName: req.headers.host ?? 'localhost',
      identity: { sourceIp, userAgent: req.headers['user-agent'] ?? null },
      authorizer: null as Record<string, unknown> | null,
    };

    // What API Gateway puts in both the authorizer's event and the handler's proxy event.
    const common = {
      resource: m.template,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders: multi,
      queryStringParameters: query,
      multiValueQueryStringParameters: multiQuery,
      pathParameters,
      stageVariables: null,
      requestContext,
    };

    if (m.route.auth === 'key') {
      const authorizer = (await load(authorizerModule)).handler as AuthorizerHandler;
      const authEvent = {
        type: 'REQUEST',
        methodArn: `arn:aws:execute-api:local:000000000000:local/local/${method}${url.pathname}`,
        ...common,
      } as unknown as APIGatewayRequestAuthorizerEvent;
      let result: APIGatewayAuthorizerResult;
      try {
        result = await authorizer(authEvent);
      } catch (error) {
        if (error instanceof Error && error.message === 'Unauthorized') {
          return sendError(res, 401, 'unauthorized', 'A valid API key is required: send Authorization: Bearer <key>', requestId);
        }
        throw error;
      }
      const allowed = result.policyDocument.Statement.some((statement) => statement.Effect === 'Allow');
      if (!allowed) return sendError(res, 403, 'forbidden', 'This key may not call this endpoint', requestId);
      requestContext.authorizer = { ...result.context, principalId: result.principalId };
    }

    const event = {
      ...common,
      body: raw.length === 0 ? null : binary ? raw.toString('base64') : raw.toString('utf8'),
      isBase64Encoded: binary && raw.length > 0,
    } as unknown as APIGatewayProxyEvent;
    if (Buffer.byteLength(JSON.stringify(event)) > MAX_LAMBDA_EVENT_BYTES) {
      return sendError(
        res,
        413,
        'payload_too_large',
        'The request is larger than the API can pass to its function (6 MB after base64)',
        requestId,
      );
    }

    const handler = (await load(m.route.handler)).handler as ProxyHandler;
    const { result, commands } = await countCalls(() =>
      handler(event, lambdaContext(m.route.id, requestId, (m.route.timeoutSeconds ?? 10) * 1000)),
    );
    recordRouteCalls(
      m.route.id,
      result.statusCode,
      commands.filter((command) => !command.endsWith('(limiter)')),
    );
    const responseHeaders: Record<string, string | string[]> = {
      'Access-Control-Allow-Origin': '*',
      ...result.headers,
      // Local diagnostics (never on AWS, opt-in with LOCAL_DEBUG_HEADERS=1): the DynamoDB calls the handler made.
      ...(debugHeaders && {
        'X-Local-DynamoDB-Calls': String(commands.length),
        // Capped: a bulk import sends thousands of BatchWriteItem calls (Node refuses headers over 16 KB).
        'X-Local-DynamoDB-Commands': commands.length > 100 ? `${commands.slice(0, 100).join(',')},...` : commands.join(','),
      }),
    } as Record<string, string>;
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) responseHeaders[name] = values.map(String);
    res.writeHead(result.statusCode, responseHeaders);
    // As API Gateway: a base64 answer becomes bytes only when the request's first Accept type is a
    // binary media type; any other client gets the base64 text.
    const firstAccept = String(req.headers.accept ?? '').split(',')[0] ?? '';
    res.end(result.isBase64Encoded && isBinaryType(firstAccept) ? Buffer.from(result.body, 'base64') : result.body);
  }

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolvePromise());
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : 'localhost';
  return {
    server,
    url: `http://${hostForUrl === '127.0.0.1' ? 'localhost' : hostForUrl}:${address.port}`,
    close: async () => {
      await new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      });
      await auditShipping.stop();
    },
  };
}

import { request as httpRequest } from 'node:http';
import { inject } from 'vitest';
import type { BodyOf, ErrorBody, LooseBody } from './api-types';
import { checkAgainstContract } from './contract-check';

/** An answer; without its body's type, the loose envelope of a path the checker cannot read (./api-types.ts). */
export interface ApiResponse<T = LooseBody> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  from?: string;
}

/**
 * Calls the local gateway; `key: null` sends no Authorization header. `from` is the local address
 * the request leaves from (another loopback address, e.g. `127.0.0.2`: another client to the
 * gateway, which reads the client's address from the connection). The body is typed as the answer
 * of the operation the method and path reach (./api-types.ts), and the answer is checked against
 * the OpenAPI document (./contract-check.ts): one that does not match it fails the test.
 */
export async function call<const Method extends string, const Path extends string>(
  method: Method,
  path: Path,
  options: CallOptions = {},
): Promise<ApiResponse<BodyOf<Method, Path>>> {
  return send(method, path, options);
}

async function send<T>(method: string, path: string, options: CallOptions): Promise<ApiResponse<T>> {
  const response = await exchange<T>(method, path, options);
  // Every answer matches the OpenAPI document, or the test fails (./contract-check.ts).
  checkAgainstContract(method, path, response.status, response.headers, response.body);
  return response;
}

async function exchange<T>(method: string, path: string, options: CallOptions): Promise<ApiResponse<T>> {
  const { api, shop } = inject('fixtures');
  const key = options.key === undefined ? shop.secretTest : options.key;
  const headers: Record<string, string> = { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...options.headers };
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  if (options.from) return callFrom<T>(options.from, new URL(`${api}${path}`), method, headers, body);
  const response = await fetch(`${api}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** `call` over node:http, whose requests can leave from a chosen local address (fetch's cannot). */
function callFrom<T>(localAddress: string, url: URL, method: string, headers: Record<string, string>, body?: string) {
  return new Promise<ApiResponse<T>>((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers, localAddress }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const answered = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) answered.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve({ status: response.statusCode ?? 0, headers: answered, body: text ? JSON.parse(text) : undefined });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A list's query string, with its `?`, or none: `/v1/quotes${Query}` is still the list to the type checker. */
export type Query = '' | `?${string}`;

/** Any answer whose error a helper reads: every typed answer is one. */
export type ErrorResponse = ApiResponse<{ success: boolean; error: ErrorBody }>;

let counter = 0;
/** A unique email per call, so tests never collide on the uniqueness rule. */
export const uniqueEmail = (label = 'customer') => `${label}.${Date.now().toString(36)}.${counter++}@example.com`;

/**
 * The DynamoDB work behind a response, from the local gateway's `X-Local-DynamoDB-*` headers
 * (local-aws/dynamodb-calls.ts; the tests' stack turns them on): the calls, and the items the
 * reads among them read (`Query[26]` read 26). Rate-limiter calls are left out.
 */
export function dynamoDbWork(response: ApiResponse<unknown>): { calls: number; commands: string[]; items: number } {
  const header = response.headers.get('x-local-dynamodb-commands');
  if (header === null) throw new Error('no X-Local-DynamoDB-Commands header: the gateway runs without its debug headers');
  const commands = header
    .split(',')
    .filter(Boolean)
    .filter((command) => !command.endsWith('(limiter)'));
  const items = commands.reduce((sum, command) => sum + Number(/\[(\d+)\]$/.exec(command)?.[1] ?? 0), 0);
  return { calls: commands.length, commands, items };
}

import { inject } from 'vitest';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the local gateway; `key: null` sends no Authorization header. */
export async function call<T = any>(
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const { api, shop } = inject('fixtures');
  const key = options.key === undefined ? shop.secretTest : options.key;
  const headers: Record<string, string> = { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...options.headers };
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  const response = await fetch(`${api}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

let counter = 0;
/** A unique email per call, so tests never collide on the uniqueness rule. */
export const uniqueEmail = (label = 'customer') => `${label}.${Date.now().toString(36)}.${counter++}@example.com`;

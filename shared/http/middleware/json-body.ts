import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DomainError, MAX_ERROR_DETAILS, ValidationError } from '#shared/errors';

/** `application/json`, `application/json; charset=utf-8`, `application/merge-patch+json`… */
const JSON_MEDIA_TYPE = /^application\/(?:[^;\s]+\+)?json\s*(?:;|$)/i;

/**
 * Where `value` holds a `__proto__` key, as dotted field paths (at most MAX_ERROR_DETAILS). JSON.parse
 * keeps `__proto__` as an ordinary own key (it never sets a prototype), but code that copies objects
 * by assignment would: so a body holding one anywhere is refused before any code sees it. Walks with
 * an explicit stack: a body nested ten thousand levels deep costs a loop, not the call stack.
 */
export function forbiddenKeyPaths(value: unknown): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length && found.length < MAX_ERROR_DETAILS) {
    const [current, path] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    for (const [key, child] of Object.entries(current)) {
      const inner = path ? `${path}.${key}` : key;
      if (key === '__proto__') found.push(inner);
      stack.push([child, inner]);
    }
  }
  return found;
}

/**
 * An empty body is treated as `{}` (so a missing body is a 422 naming required fields, not a 400);
 * a non-empty one must be JSON: another Content-Type is a 415, malformed JSON a 400 `invalid_json`,
 * and a `__proto__` key anywhere a 422 naming it (strict schemas refuse unknown keys; this one is
 * refused before validation, so no code ever copies it onto an object).
 */
export const jsonBody = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const event = request.event as Omit<APIGatewayProxyEvent, 'body'> & { body: unknown };
    const body = event.body as string | null | undefined;
    if (body === null || body === undefined || body.trim() === '') {
      event.body = {};
      return;
    }
    // Header names are lower-cased by the request scope (middleware/request-scope.ts).
    if (!JSON_MEDIA_TYPE.test(event.headers?.['content-type'] ?? '')) {
      throw new DomainError('unsupported_media_type', 'Send request bodies as JSON with Content-Type: application/json');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);
    } catch {
      throw new DomainError('invalid_json', 'The request body is not valid JSON');
    }
    const forbidden = forbiddenKeyPaths(parsed);
    if (forbidden.length)
      throw new ValidationError(
        'The request body is invalid',
        forbidden.map((field) => ({ field, message: 'Unknown field' })),
      );
    event.body = parsed;
  },
});

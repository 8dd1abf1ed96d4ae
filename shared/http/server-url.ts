/** The base URL a request came in on (the OpenAPI document's `servers`, a carrier's callback URL). */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The base URL a request came in on, for the document's `servers`: the scheme the client used
 * (`X-Forwarded-Proto`, set by API Gateway — https — and by the local gateway — http), its host,
 * and the stage prefix of an execute-api URL (`requestContext.path` is `/dev/v1/…` where the
 * resource path is `/v1/…`). Undefined when the request names no usable host.
 */
export function serverUrlOf(
  headers: Record<string, string | undefined>,
  path: string,
  context?: { path?: string; domainName?: string },
): string | undefined {
  const host = headers.host ?? context?.domainName;
  if (!host || !HOST.test(host)) return undefined;
  const scheme = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'http' ? 'http' : 'https';
  const full = context?.path ?? path;
  const prefix = full.endsWith(path) ? full.slice(0, full.length - path.length) : '';
  return `${scheme}://${host}${/^(?:\/[A-Za-z0-9_.~-]+)*$/.test(prefix) ? prefix : ''}`;
}

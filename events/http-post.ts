/**
 * One webhook POST. It connects to the address the SSRF guard checked (the `lookup` option hands
 * Node exactly that address, so a DNS answer that changed in between is never used), keeps the
 * URL's host for the Host header and TLS SNI/certificate checks, follows no redirects, and gives
 * up after the deadline. The outcome is data, never an exception: every failure is an attempt.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, type ResolvedTarget } from './ssrf';

/** What is kept of a receiver's answer (enough to debug, bounded in the delivery history). */
export const MAX_RESPONSE_BODY_CHARS = 1024;

export interface PostOutcome {
  statusCode?: number;
  durationMs: number;
  error?: string;
  responseBody?: string;
}

/** Always answers with the checked address, whichever form of callback Node asks for. */
function pinnedLookup(target: ResolvedTarget): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

function describeError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ECONNRESET') return 'connection reset by the receiver';
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

export function postWebhook(url: URL, target: ResolvedTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const host = bareHost(url);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = transport.request(
      {
        protocol: url.protocol,
        host,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, Host: url.host, 'Content-Length': String(Buffer.byteLength(body)) },
        // A fresh connection per delivery: no pooled socket to some other address is reused.
        agent: false,
        lookup: pinnedLookup(target),
        ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          // Enough is kept; stop reading a large answer rather than waiting for all of it.
          if (text.length >= MAX_RESPONSE_BODY_CHARS) {
            finish({ statusCode: response.statusCode, responseBody: text.slice(0, MAX_RESPONSE_BODY_CHARS) });
            response.destroy();
          }
        });
        response.on('end', () => finish({ statusCode: response.statusCode, responseBody: text }));
        response.on('error', (error) => finish({ statusCode: response.statusCode, responseBody: text, error: describeError(error, timeoutMs) }));
      },
    );
    request.on('error', (error) => finish({ error: describeError(error, timeoutMs) }));
    request.end(body);
  });
}

/**
 * One webhook POST. It connects to the address the SSRF guard checked (the `lookup` option hands
 * Node exactly that address, so a DNS answer that changed in between is never used), keeps the
 * URL's host for the Host header and TLS SNI/certificate checks, follows no redirects, and gives
 * up after the deadline. The outcome is data, never an exception: every failure is an attempt.
 *
 * Connections are kept alive and reused, but only within one keep-alive agent per (scheme,
 * checked address, port, host name): every socket of an agent was opened to that one address, so
 * a reused socket always leads to the address the SSRF check has just approved again — a later
 * DNS answer pointing elsewhere gets an agent (and connections) of its own. A request that fails
 * because the receiver closed an idle kept-alive socket under it is sent once more on a new
 * connection, within the same deadline (Node's documented pattern for `reusedSocket`).
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

/** Idle kept-alive sockets are closed after this long: below the common 5 s server keep-alive timeout. */
const IDLE_SOCKET_MS = 4_000;
/** Agents remembered (least recently used dropped first; their idle sockets close by the timeout above). */
const MAX_AGENTS = 256;
const agents = new Map<string, http.Agent>();

function agentFor(url: URL, target: ResolvedTarget, host: string): http.Agent {
  const key = `${url.protocol}//${target.address}|${url.port}|${host}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // re-inserted below: most recently used last
  } else {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  }
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) agents.delete(agents.keys().next().value!);
  return agent;
}

/** Closes every kept-alive connection (tests and benchmarks, before their receivers stop). */
export function closeWebhookConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

function describeError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ECONNRESET') return 'connection reset by the receiver';
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

export async function postWebhook(
  url: URL,
  target: ResolvedTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostOutcome> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const agent = agentFor(url, target, bareHost(url));
  const first = await send(url, target, body, headers, signal, timeoutMs, agent);
  const outcome = first.staleSocket && !signal.aborted ? await send(url, target, body, headers, signal, timeoutMs, false) : first;
  return { ...outcome.outcome, durationMs: Math.round(performance.now() - started) };
}

interface SendResult {
  outcome: Omit<PostOutcome, 'durationMs'>;
  /** The request failed on a reused idle socket before any answer: worth one retry on a new connection. */
  staleSocket: boolean;
}

function send(
  url: URL,
  target: ResolvedTarget,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
  agent: http.Agent | false,
): Promise<SendResult> {
  const host = bareHost(url);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>, staleSocket = false) => {
      if (settled) return;
      settled = true;
      resolve({ outcome, staleSocket });
    };
    const request = transport.request(
      {
        protocol: url.protocol,
        host,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, Host: url.host, 'Content-Length': String(Buffer.byteLength(body)) },
        // Kept-alive sockets, all to this one checked address (see agentFor), or a fresh one.
        agent,
        lookup: pinnedLookup(target),
        ...(url.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
        signal,
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
        response.on('error', (error) =>
          finish({ statusCode: response.statusCode, responseBody: text, error: describeError(error, timeoutMs) }),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      finish({ error: describeError(error, timeoutMs) }, stale);
    });
    request.end(body);
  });
}

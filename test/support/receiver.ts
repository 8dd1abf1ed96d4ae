/**
 * The one webhook receiver of the tests (integration and end-to-end): a real HTTP server on
 * loopback (node:http on port 0) that records every request with its raw body and headers, and
 * answers with the status codes it is told — one per request in order, then the last one again;
 * `respondWith` changes the plan for the requests still to come.
 *
 * Start it with `useReceiver()` inside a test: it is closed when the test finishes, pass or fail.
 * A receiver shared by a whole file (`startReceiver()` in `beforeAll`) is closed in `afterAll`.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  receivedAt: number;
}

export interface ReceiverOptions {
  /** Status per request, in order; the last one repeats. Default `[200]`. */
  statuses?: number[];
  /** Response body for a status; default `ok` for 2xx, `status <code>` otherwise. */
  body?: (status: number) => string;
  /** Path part of `url`. Default `/hooks`. */
  path?: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** From the next request on: answer these statuses (the last one repeats), with `body` if given. */
  respondWith(statuses: number | number[], body?: (status: number) => string): void;
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Idempotent. */
  close(): Promise<void>;
}

const defaultBody = (status: number) => (status < 300 ? 'ok' : `status ${status}`);

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: (() => void)[] = [];
  let plan = { statuses: options.statuses ?? [200], body: options.body ?? defaultBody, from: 0 };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      });
      const served = requests.length - 1 - plan.from;
      const status = plan.statuses[Math.min(served, plan.statuses.length - 1)] ?? 200;
      const body = plan.body(status);
      res.writeHead(status, { 'Content-Type': body.startsWith('{') ? 'application/json' : 'text/plain' });
      res.end(body);
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/hooks'}`,
    requests,
    respondWith(statuses, body) {
      plan = { statuses: Array.isArray(statuses) ? statuses : [statuses], body: body ?? plan.body, from: requests.length };
    },
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`receiver got ${requests.length} request(s), expected ${count}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return requests.slice(0, count);
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

/** A receiver for the current test, closed when it finishes (pass or fail). Call it inside a test. */
export async function useReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const receiver = await startReceiver(options);
  onTestFinished(() => receiver.close());
  return receiver;
}

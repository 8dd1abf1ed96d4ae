/** A webhook receiver on 127.0.0.1 for the tests: records every request; answers 200 or, when told to, 500. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  failing: boolean;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const state = { received: [] as Received[], failing: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (state.failing) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"error":"receiver is down for maintenance"}');
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"received":true}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hooks/print-shop`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

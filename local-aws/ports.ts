import type { Server } from 'node:http';
import { createServer } from 'node:net';

/**
 * Asks the OS for a free TCP port (listen on 0, read it, close). Only for engines that cannot
 * listen on port 0 themselves (DynamoDB Local takes `-port N`). It probes the wildcard address,
 * as the JVM binds all interfaces. Never a fixed port: tests run while `npm start` is up.
 */
export function freePort(): Promise<number> {
  return probe(0).then((port) => port ?? Promise.reject(new Error('no free TCP port')));
}

/** True if nothing listens on `port` on any interface. */
export async function portIsFree(port: number): Promise<boolean> {
  return (await probe(port)) !== undefined;
}

function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(undefined) : reject(error),
    );
    server.listen(port, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/** Listens and resolves with the bound port (the real one when asked for 0); rejects on bind errors. */
export function listenOn(server: Server, port: number, hostname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * S3 emulator (s3rver): objects on disk under `directory`, path-style URLs
 * (http://127.0.0.1:<port>/<bucket>/<key>), SigV4 headers and presigned URLs are checked.
 *
 * Clients must sign with S3RVER_CREDENTIALS (s3rver's only key pair); see credentials.ts.
 * Not emulated: lifecycle rules (the `tmp/` expiry of the files bucket). The files bucket's CORS rule is set (provision.ts).
 */
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import S3rver from 's3rver';
import { LOCAL_CREDENTIALS } from './credentials';
import { listenOn } from './ports';

export const S3RVER_CREDENTIALS = LOCAL_CREDENTIALS;

export interface S3Emulator {
  endpoint: string;
  /** Idempotent; the data in `directory` stays. */
  stop(): Promise<void>;
}

export async function startS3Emulator(options: { directory: string; port?: number }): Promise<S3Emulator> {
  const hostname = '127.0.0.1';
  await mkdir(options.directory, { recursive: true });
  const s3rver = new S3rver({ directory: options.directory, silent: true, resetOnClose: false });
  // s3rver is a Koa app; serving its handler from our own server (instead of s3rver.run()) turns a
  // port that cannot be bound into a rejection rather than an unhandled 'error' event.
  const server = createServer(s3rver.callback());
  const port = await listenOn(server, options.port ?? 0, hostname);

  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://${hostname}:${port}`,
    stop: () =>
      (stopping ??= new Promise<void>((done) => {
        server.close(() => {
          s3rver.logger.close();
          done();
        });
        server.closeAllConnections(); // SDK keep-alive sockets would hold close() open
      })),
  };
}

/** Minimal typings for s3rver 3.x (it ships none); only what local-aws/s3.ts uses. */
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    serviceEndpoint?: string;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa request handler. */
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    configureBuckets(): Promise<void>;
    logger: { close(): void };
  }
}

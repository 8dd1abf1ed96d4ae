/**
 * SQS emulator (local-aws-sqs): speaks the JSON protocol of the current AWS SDK and honours
 * visibility timeouts and RedrivePolicy/DLQ.
 *
 * Messages live in memory only and are lost on restart. That is accepted: the durable record of
 * what still has to be delivered is the outbox in DynamoDB, which re-enqueues; the queue is only
 * transport.
 */
import { createServer } from 'node:http';
import { createRequestHandler } from 'local-aws-sqs';
import { LOCAL_REGION } from './credentials';
import { listenOn } from './ports';

export interface SqsEmulator {
  endpoint: string;
  /** Idempotent. */
  stop(): Promise<void>;
}

export async function startSqsEmulator(options: { port?: number } = {}): Promise<SqsEmulator> {
  const hostname = '127.0.0.1';
  // createRequestHandler + our own server rather than createSqsServer: createSqsServer never
  // rejects when the port cannot be bound (the error goes unhandled); here it becomes a rejection.
  const { service, requestHandler } = createRequestHandler({
    port: options.port ?? 0,
    hostname,
    region: LOCAL_REGION,
    // Deleting and re-creating a queue (tests, re-provisioning) must not wait 60 s as on AWS.
    emulateQueueCreationLifecycle: false,
    emulateLazyQueues: false,
    validateDlqDestination: true,
  });
  const server = createServer((req, res) => {
    requestHandler(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  const port = await listenOn(server, options.port ?? 0, hostname);
  // Queue URLs are built from this; it must be the real port when we listened on 0.
  service.PORT = port;

  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://${hostname}:${port}`,
    stop: () =>
      (stopping ??= new Promise<void>((done) => {
        service.resetAll(); // drops queues and their pending timers
        server.close(() => done());
        server.closeAllConnections(); // keep-alive sockets and long polls would hold close() open
      })),
  };
}

/**
 * The local stand-in for CloudWatch Logs + the audit subscription filter: tees this process's
 * stdout (where the handlers run), holds back the audit lines (shared/audit/sink.ts) and hands
 * them every 100 ms to the real shipper handler (functions/audit/ship.ts) as a gzipped
 * CloudWatch Logs subscription event — the same path as on AWS, end to end. A failed delivery is
 * kept and retried; stop() flushes what is left. Other output passes through untouched.
 */
import type { CloudWatchLogsEvent } from 'aws-lambda';
import { gzipSync } from 'node:zlib';
import { AUDIT_LINE_PREFIX } from '#shared/audit/sink';
import { handler as shipAudit } from '#functions/audit/ship';

const FLUSH_MS = 100;

export interface AuditShipping {
  /** Ships everything held back now (tests call it to read their records at once). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

function subscriptionEvent(messages: string[]): CloudWatchLogsEvent {
  const now = Date.now();
  const data = {
    messageType: 'DATA_MESSAGE',
    owner: '000000000000',
    logGroup: '/aws/lambda/local',
    logStream: 'local',
    subscriptionFilters: ['audit'],
    logEvents: messages.map((message, index) => ({ id: `${now}-${index}`, timestamp: now, message })),
  };
  return { awslogs: { data: gzipSync(JSON.stringify(data)).toString('base64') } };
}

export function startAuditShipping(): AuditShipping {
  const held: string[] = [];
  const originalWrite = process.stdout.write.bind(process.stdout);

  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
    // The sink writes whole lines in one call; anything else passes through as it is.
    if (text !== undefined && text.startsWith(AUDIT_LINE_PREFIX) && text.endsWith('\n')) {
      held.push(...text.split('\n').filter(Boolean));
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }
    return (originalWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;

  let shipping: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    shipping = shipping.then(async () => {
      if (held.length === 0) return;
      const batch = held.splice(0, held.length);
      try {
        await shipAudit(subscriptionEvent(batch));
      } catch (error) {
        held.unshift(...batch); // kept for the next try, as CloudWatch Logs retries
        console.error('audit shipping failed; will retry:', error instanceof Error ? error.message : error);
      }
    });
    return shipping;
  };
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  return {
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
      process.stdout.write = originalWrite;
    },
  };
}

/**
 * A minimal webhook receiver (Node 20+, no dependencies). Run it with
 *
 *   WEBHOOK_SECRET=whsec_… PORT=4000 npx tsx docs/examples/receiver.ts
 *
 * and register `http://127.0.0.1:4000/webhooks` against `npm start` (local mode allows loopback
 * http receivers; a deployed API needs a public https URL).
 *
 * What a receiver must do: read the raw body (verify before parsing: re-serialized JSON would not
 * match), reject anything that does not verify with 401, answer 2xx quickly (within 10 s; do slow
 * work afterwards), and deduplicate on the delivery id — deliveries are at-least-once and may
 * arrive out of order (sort on `timestamp`).
 */
import { createServer } from 'node:http';
import { verifyWebhook } from './verify-webhook';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('Set WEBHOOK_SECRET to the whsec_… secret shown when the webhook was created');

/** In production keep this in your database (with a unique constraint), not in memory. */
const seen = new Set<string>();

createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks);
    const result = verifyWebhook(rawBody, req.headers, secret);
    if (!result.ok) {
      res.writeHead(401, { 'Content-Type': 'text/plain' }).end(result.reason);
      return;
    }
    const delivery = JSON.parse(rawBody.toString('utf8')) as {
      id: string;
      event: string;
      timestamp: string;
      test?: boolean;
      data: unknown;
    };
    res.writeHead(200).end(); // acknowledge first, then work
    if (seen.has(delivery.id)) return; // a retry or a redelivery of something already handled
    seen.add(delivery.id);
    console.log(`${delivery.timestamp} ${delivery.event}${delivery.test ? ' (test)' : ''}`, JSON.stringify(delivery.data));
  });
}).listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log('receiver listening'));

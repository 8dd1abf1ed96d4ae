/**
 * Runs the webhook pipeline benchmark alone (bench/webhooks.ts):
 *
 *   npx tsx bench/webhooks-main.ts [--out file.json] [--events 1000] [--registrations 5]
 *     [--writers 8] [--latency-events 200] [--warmup-events 300] [--log-level WARN] [--no-with-writes]
 *
 * Prints the figures as JSON on stdout (progress on stderr) and exits non-zero when a delivery
 * was lost or a budget was missed.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { benchWebhookPipeline } from './webhooks';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    events: { type: 'string' },
    registrations: { type: 'string' },
    'latency-events': { type: 'string' },
    writers: { type: 'string' },
    'log-level': { type: 'string' },
    'warmup-events': { type: 'string' },
    'no-with-writes': { type: 'boolean' },
  },
});
const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));

const figures = await benchWebhookPipeline({
  throughputEvents: number(values.events),
  registrations: number(values.registrations),
  latencyEvents: number(values['latency-events']),
  writers: number(values.writers),
  logLevel: values['log-level'] as never,
  warmupThroughputEvents: number(values['warmup-events']),
  withWrites: values['no-with-writes'] ? false : undefined,
});
const json = JSON.stringify(figures, null, 2);
console.log(json);
if (values.out) await writeFile(values.out, json + '\n');
const ok = Object.values(figures.passed).every(Boolean);
process.exitCode = ok ? 0 : 1;

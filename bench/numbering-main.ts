/**
 * Runs the numbering section of the benchmark alone (bench/numbering.ts; no bundles needed: the
 * service in-process), against engines started in memory:
 *
 *   npx tsx bench/numbering-main.ts
 *
 * Prints the figures as JSON.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dataDir = await mkdtemp(join(tmpdir(), 'print-shop-bench-numbering-'));
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
const { startEngines } = await import('#local-aws/engines');
const engines = await startEngines({ dataDir, inMemory: true, stage: 'bench' });
Object.assign(process.env, engines.env);
(await import('#shared/config')).resetConfig();
try {
  const { benchNumbering } = await import('./numbering');
  console.log(JSON.stringify(await benchNumbering(), null, 2));
} finally {
  await engines.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(0);

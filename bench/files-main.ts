/**
 * Runs the files section of the benchmark alone (bench/files.ts), on the bundles `npm run bench`
 * last built into bench/out (build them first), against engines started in memory:
 *
 *   npx tsx bench/files-main.ts
 *
 * Prints the figures as JSON.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outDir } from './bundles';

const dataDir = await mkdtemp(join(tmpdir(), 'print-shop-bench-files-'));
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
const { startEngines } = await import('#local-aws/engines');
const engines = await startEngines({ dataDir, inMemory: true, stage: 'bench' });
Object.assign(process.env, engines.env);
(await import('#shared/config')).resetConfig();
try {
  const { benchFiles } = await import('./files');
  console.log(JSON.stringify(await benchFiles((id) => join(outDir, `${id}.mjs`)), null, 2));
} finally {
  await engines.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(0);

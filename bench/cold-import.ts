/**
 * Cold import: the median wall time of importing a bundle in a fresh Node process (what a Lambda
 * cold start adds for our code), minus a bare `node -e 0`, over `runs` runs each.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { median } from './bundles';

const env = {
  ...process.env,
  // What Lambda provides; nothing at import time may need more.
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  TABLE_NAME: 'bench',
  POWERTOOLS_LOG_LEVEL: 'WARN',
};

function timeRun(args: string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr.toString().slice(0, 500)}`);
  return elapsed;
}

export interface ColdImportFigure {
  id: string;
  medianMs: number;
  bareNodeMs: number;
  addedMs: number;
}

export function measureColdImports(bundles: { id: string; file: string }[], runs = 12): ColdImportFigure[] {
  const bare = median(Array.from({ length: runs }, () => timeRun(['-e', '0'])));
  return bundles.map(({ id, file }) => {
    const script = `await import(${JSON.stringify(pathToFileURL(file).href)})`;
    const times = Array.from({ length: runs }, () => timeRun(['--input-type=module', '-e', script]));
    const medianMs = median(times);
    return {
      id,
      medianMs: Math.round(medianMs * 10) / 10,
      bareNodeMs: Math.round(bare * 10) / 10,
      addedMs: Math.round((medianMs - bare) * 10) / 10,
    };
  });
}

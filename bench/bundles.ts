/**
 * Bundle sizes: every handler built exactly as CDK bundles it (infra/bundling.ts), measured from
 * the esbuild metafile. Used by the benchmark (printed) and by a test (the 350 KB budget).
 */
import { build, type Metafile } from 'esbuild';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { esbuildOptions } from '#infra/bundling';
import { functionEntries } from '#infra/entries';

export const projectRoot = resolve(import.meta.dirname, '..');
export const outDir = join(projectRoot, 'bench', 'out');

export interface BundleFigure {
  id: string;
  entry: string;
  bytes: number;
  file: string;
  metafile: Metafile;
}

export { functionEntries as entries } from '#infra/entries';

export async function buildBundles(): Promise<BundleFigure[]> {
  await mkdir(outDir, { recursive: true });
  const figures: BundleFigure[] = [];
  // Sequential on purpose: esbuild is already parallel inside, and 2 cores are all we have.
  for (const { id, entry } of functionEntries()) {
    const file = join(outDir, `${id}.mjs`);
    const result = await build(esbuildOptions(join(projectRoot, entry), file));
    const output = Object.entries(result.metafile!.outputs).find(([name]) => name.endsWith('.mjs'))!;
    figures.push({ id, entry, bytes: output[1].bytes, file, metafile: result.metafile! });
  }
  return figures;
}

/** Bytes per package (or project folder) inside one bundle, largest first. */
export function topModules(figure: BundleFigure, count = 10): { module: string; bytes: number }[] {
  const output = Object.entries(figure.metafile.outputs).find(([name]) => name.endsWith('.mjs'))![1];
  const byModule = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const module = match ? match[1]! : input.split('/').slice(0, 2).join('/');
    byModule.set(module, (byModule.get(module) ?? 0) + bytesInOutput);
  }
  return [...byModule.entries()]
    .map(([module, bytes]) => ({ module, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

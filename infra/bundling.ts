/**
 * How every handler is bundled — one definition, used by CDK (NodejsFunction) and by the
 * benchmark (`npm run bench` builds the same bundles with esbuild's API to measure them).
 */
import type { BuildOptions } from 'esbuild';

/** ESM needs `require` for the few CommonJS dependencies that call it. */
export const requireBanner = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

export const bundleSettings = {
  format: 'esm' as const,
  target: 'node24',
  platform: 'node' as const,
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: true,
  // Stack traces need only the mappings, not a copy of every source file.
  sourcesContent: false,
  // Nothing external: the AWS SDK v3 is bundled too (tree-shaken, pinned by our lock file).
  external: [] as string[],
  banner: requireBanner,
};

/** The same bundle as CDK's, for esbuild's build API. */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: bundleSettings.format,
    target: bundleSettings.target,
    platform: bundleSettings.platform,
    mainFields: bundleSettings.mainFields,
    minify: bundleSettings.minify,
    sourcemap: bundleSettings.sourcemap,
    sourcesContent: bundleSettings.sourcesContent,
    external: bundleSettings.external,
    banner: { js: bundleSettings.banner },
    metafile: true,
    logLevel: 'error',
  };
}

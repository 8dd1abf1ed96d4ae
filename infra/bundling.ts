/**
 * How every handler is bundled — one definition, used by CDK (NodejsFunction) and by the
 * benchmark (`npm run bench` builds the same bundles with esbuild's API to measure them).
 */
import type { BuildOptions } from 'esbuild';
import { join } from 'node:path';

const projectRoot = join(import.meta.dirname, '..');

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
  // The AWS SDK v3 is bundled too (tree-shaken, pinned by our lock file). The one exception is
  // Smithy's event-stream codec, which the SDK loads with a dynamic import only for operations
  // with event streams (S3 SelectObjectContent, Bedrock streaming…) — none of which we call.
  external: ['@smithy/core/event-streams'] as string[],
  legalComments: 'none' as const,
  banner: requireBanner,
  // The invoice PDF's TrueType fonts are imported as bytes: a function has no node_modules to
  // read them from (shared/invoices/rendering/fonts.ts).
  loader: { '.ttf': 'binary' } as Record<string, 'binary'>,
  /** Lambda gets credentials from its environment only (see shared/lambda-stand-ins/credentials.ts). */
  // Stand-ins, each explained in its file: env-only credentials, a Map-based LRU for the SDK's
  // endpoint cache, and node:http(s) loaded through
  // `require` so their ESM facades (which load undici and tls) are not built at cold start.
  alias: {
    '@aws-sdk/credential-provider-node': join(projectRoot, 'shared/lambda-stand-ins/credentials.ts'),
    'mnemonist/lru-cache': join(projectRoot, 'shared/lambda-stand-ins/lru-cache.ts'),
    // fontkit's WOFF2 decoder: the invoice PDF embeds TrueType fonts only.
    'brotli/decompress.js': join(projectRoot, 'shared/lambda-stand-ins/brotli-decompress.ts'),
    'node:http': join(projectRoot, 'shared/lambda-stand-ins/node-http.ts'),
    http: join(projectRoot, 'shared/lambda-stand-ins/node-http.ts'),
    'node:https': join(projectRoot, 'shared/lambda-stand-ins/node-https.ts'),
    https: join(projectRoot, 'shared/lambda-stand-ins/node-https.ts'),
  } as Record<string, string>,
};

/** The alias as esbuild CLI arguments, for CDK's NodejsFunction. */
export const aliasArgs: Record<string, string> = {
  ...Object.fromEntries(Object.entries(bundleSettings.alias).map(([from, to]) => [`--alias:${from}`, to])),
  '--legal-comments': bundleSettings.legalComments,
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
    legalComments: bundleSettings.legalComments,
    banner: { js: bundleSettings.banner },
    alias: bundleSettings.alias,
    loader: bundleSettings.loader,
    metafile: true,
    logLevel: 'error',
  };
}

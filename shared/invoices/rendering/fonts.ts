/**
 * The invoice typeface, Noto Sans regular and bold (npm: @expo-google-fonts/noto-sans): full
 * Latin, Greek and Cyrillic, so every EU language's names print as they are written.
 *
 * The same bytes reach the renderer two ways:
 * - in a Lambda bundle, esbuild's `binary` loader for `.ttf` (infra/bundling.ts) inlines each file
 *   into the bundle as a Uint8Array (font-files.ts): the function has no node_modules to read;
 * - from source (tsx, vitest), Node cannot import a `.ttf`, so the files are read from
 *   node_modules, and font-files.ts is never loaded.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

export interface InvoiceFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

const REGULAR = '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf';
const BOLD = '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf';

/** Source runs load this module as the .ts file itself; in a bundle it is part of an .mjs. */
const fromSource = import.meta.url.endsWith('.ts');

let loaded: Promise<InvoiceFonts> | undefined;

/** The font files, loaded once per process (a warm Lambda renders without reading them again). */
export function invoiceFonts(): Promise<InvoiceFonts> {
  loaded ??= (fromSource ? readFromPackage() : importInlined()).catch((error: unknown) => {
    loaded = undefined; // let the next render try again
    throw error;
  });
  return loaded;
}

async function readFromPackage(): Promise<InvoiceFonts> {
  const require = createRequire(import.meta.url);
  const [regular, bold] = await Promise.all([readFile(require.resolve(REGULAR)), readFile(require.resolve(BOLD))]);
  return { regular, bold };
}

async function importInlined(): Promise<InvoiceFonts> {
  const { regular, bold } = await import('./font-files');
  return { regular, bold };
}

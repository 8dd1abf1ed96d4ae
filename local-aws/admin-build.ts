/**
 * Builds the admin panel (admin/ → admin/dist) with Vite when the build is missing or older than
 * its sources, so `npm start` and the end-to-end tests work from a fresh clone. Vite runs as a
 * child process on the same Node as this process (the project's Node 24).
 *
 * `tsx local-aws/admin-build.ts [--force]` runs it from the command line.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const projectRoot = resolve(import.meta.dirname, '..');
export const adminDir = join(projectRoot, 'admin');
export const adminDistDir = join(adminDir, 'dist');

/** What goes into the bundle: the panel's sources, its build config, and the shared modules it imports. */
const sources = [
  join(adminDir, 'src'),
  join(adminDir, 'public'),
  join(adminDir, 'index.html'),
  join(adminDir, 'vite.config.ts'),
  join(projectRoot, 'shared', 'events', 'catalogue.ts'),
  join(projectRoot, 'shared', 'auth', 'scopes.ts'),
  join(projectRoot, 'package-lock.json'),
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

/** True when admin/dist is missing or any source changed after it was built. */
export function adminBuildIsStale(): boolean {
  const built = join(adminDistDir, 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return sources.some((source) => newestMtime(source) > builtAt);
}

export async function buildAdmin(options: { outDir?: string; quiet?: boolean } = {}): Promise<void> {
  const vite = join(projectRoot, 'node_modules', 'vite', 'bin', 'vite.js');
  const args = [vite, 'build', adminDir, '--logLevel', options.quiet ? 'warn' : 'info'];
  if (options.outDir) args.push('--outDir', options.outDir, '--emptyOutDir');
  await new Promise<void>((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`Building the admin panel failed (vite exited with ${code})`)),
    );
  });
}

/** Builds when stale; answers whether it built. */
export async function ensureAdminBuilt(options: { quiet?: boolean } = {}): Promise<boolean> {
  if (!adminBuildIsStale()) return false;
  await buildAdmin(options);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const force = process.argv.includes('--force');
  const run = force ? buildAdmin().then(() => true) : ensureAdminBuilt();
  run
    .then((built) => console.log(built ? `admin panel built into ${adminDistDir}` : 'admin panel is up to date'))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}

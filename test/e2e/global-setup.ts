/**
 * The end-to-end project's setup: builds the admin panel when stale, then starts the local stack
 * in a child process (test/e2e/stack.ts: engines in memory, gateway with /admin, delivery
 * workers with retries seconds apart, an account with keys) and hands its fixtures to the tests.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { ensureAdminBuilt } from '#local-aws/admin-build';
import { CHROMIUM, chromiumAvailable } from './browser';
import type { E2eFixtures } from './fixtures';

const projectRoot = resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject) {
  // Never a silent skip: without the browser the project fails here, before a stack starts.
  // (`npm test` installs it up front: scripts/ensure-dependencies.mjs --chromium.)
  if (!chromiumAvailable) {
    throw new Error(
      `The end-to-end tests need Chromium at ${CHROMIUM}, which is missing. Install Debian's package: ` +
        'sudo apt-get install -y chromium (or set CHROMIUM_PATH to another Chromium binary).',
    );
  }
  await ensureAdminBuilt({ quiet: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/e2e/stack.ts'], {
    cwd: projectRoot,
    // Quiet handler logs (the logger reads its level on import); stderr still shows errors.
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'ERROR' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const fixtures = await new Promise<E2eFixtures>((resolveReady, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolveReady(JSON.parse(line.slice('READY '.length)) as E2eFixtures);
      else if (process.env.E2E_LOG_LEVEL) console.log(`[e2e stack] ${line}`);
    });
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`The end-to-end stack exited (code ${code}) before it was ready`)));
  });
  project.provide('e2e', fixtures);

  return async () => {
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolveWait) => setTimeout(resolveWait, 15_000).unref())]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
}

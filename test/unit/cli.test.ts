import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CLI_TEST_TIMEOUT_MS } from '#test/support/timeouts';

// A CLI test: its own timeout (test/support/timeouts.ts).
vi.setConfig({ testTimeout: CLI_TEST_TIMEOUT_MS });

const root = resolve(import.meta.dirname, '../..');
const run = (script: string, ...args: string[]) => {
  const result = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATA_DIR: join(root, '.no-such-data-dir') },
  });
  return { status: result.status, stderr: result.stderr };
};

describe('the operator CLIs refuse what they cannot read, with the usage and exit code 2', () => {
  it('names a mistyped option and the one it probably meant', () => {
    const { status, stderr } = run('accounts.ts', 'set-plan', '--account', 'acct_x', '--plan', 'starter', '--rmp', '5');
    expect(status).toBe(2);
    expect(stderr).toMatch(/^error: unknown option --rmp \(did you mean --rpm\?\)\nusage: npm run accounts/);
  });

  it('refuses usage brackets pasted with an option instead of dropping the option', () => {
    const { status, stderr } = run('accounts.ts', 'set-plan', '--account', 'acct_x', '--plan', 'starter', '[--rpm', '2000]');
    expect(status).toBe(2);
    expect(stderr).toContain('remove the brackets in "[--rpm 2000]"');
  });

  it('refuses an option the command does not take, and says where it looked for a local stack', () => {
    expect(run('events.ts', 'sweep', '--account', 'acct_x').stderr).toContain('--account does not apply to sweep (it takes --grace)');
    expect(run('events.ts', 'seal-secrets', '--mode', 'live').stderr).toContain(
      '--mode does not apply to seal-secrets (it takes --account)',
    );
    const missing = run('events.ts', 'sweep');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('No local stack is running with its data in');
  });
});

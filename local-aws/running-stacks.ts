/**
 * A well-known list of the local stacks running on this machine, so tools find one whatever its
 * DATA_DIR: `npm start` adds a small record (pid, project, data folder, API address) while it
 * runs, and the accounts CLI reads them when <DATA_DIR>/endpoints.json names no running stack.
 * The records live in the temp folder, one file per runner: <tmp>/print-shop-api-<user>/stacks/<pid>.json.
 * A record whose process is gone (a runner killed with -9) is ignored and removed by the next read.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

export const projectRoot = resolve(import.meta.dirname, '..');

export interface RunningStack {
  pid: number;
  /** The checkout the stack runs from (a CLI only picks stacks of its own checkout). */
  projectRoot: string;
  /** Absolute data folder: DATA_DIR as the runner resolved it. */
  dataDir: string;
  api: string;
  inMemory: boolean;
}

function user(): string {
  try {
    return userInfo().username.replace(/[^\w.-]/g, '_');
  } catch {
    return String(process.getuid?.() ?? 'user');
  }
}

export const runningStacksDir = (): string => join(tmpdir(), `print-shop-api-${user()}`, 'stacks');

const recordFile = (pid: number) => join(runningStacksDir(), `${pid}.json`);

export function registerRunningStack(stack: Omit<RunningStack, 'pid' | 'projectRoot'>): void {
  const record: RunningStack = { pid: process.pid, projectRoot, ...stack, dataDir: resolve(stack.dataDir) };
  try {
    mkdirSync(runningStacksDir(), { recursive: true, mode: 0o700 });
    writeFileSync(recordFile(process.pid), JSON.stringify(record, null, 2) + '\n');
  } catch {
    // Only a convenience for the CLI: <DATA_DIR>/endpoints.json still works without it.
  }
}

export function unregisterRunningStack(): void {
  rmSync(recordFile(process.pid), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The stacks of this checkout that are running now, by pid. */
export function runningStacks(): RunningStack[] {
  let names: string[];
  try {
    names = readdirSync(runningStacksDir()).filter((name) => /^\d+\.json$/.test(name));
  } catch {
    return [];
  }
  const stacks: RunningStack[] = [];
  for (const name of names) {
    const file = join(runningStacksDir(), name);
    let record: RunningStack;
    try {
      record = JSON.parse(readFileSync(file, 'utf8')) as RunningStack;
    } catch {
      continue; // being written, or not ours
    }
    if (!isAlive(record.pid)) {
      rmSync(file, { force: true });
      continue;
    }
    if (record.projectRoot === projectRoot) stacks.push(record);
  }
  return stacks.sort((a, b) => a.pid - b.pid);
}

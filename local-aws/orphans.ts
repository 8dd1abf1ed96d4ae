/**
 * Keeps DynamoDB Local JVMs from outliving the Node process that started them. With -dbPath a
 * leftover JVM holds the SQLite file, so it would block the next start; in memory it just wastes
 * memory. Two guards: hooks that signal our children when the runner exits, and a pid file in the
 * data folder that lets the next start kill a JVM whose runner died without hooks (kill -9, crash).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const PID_FILE = 'dynamodb-local.pid';
const GRACE_MS = 5_000;

interface PidRecord {
  /** The JVM. */
  pid: number;
  /** The Node process that started it. */
  owner: number;
}

/**
 * Children still running. One `exit` hook signals them synchronously (no async work runs then).
 * SIGTERM, not SIGKILL: the JVM then exits within a fraction of a second and deletes the native
 * library it unpacked into the temp folder (a SIGKILLed one leaves ~1 MB behind each time).
 * A runner killed by a signal it does not handle never emits `exit`, so we also catch those
 * signals — but only when nobody else listens: a runner with its own handler shuts down itself
 * (stop(), or process.exit → `exit` hook).
 */
const running = new Set<ChildProcess>();
const killAll = () => {
  for (const child of running) child.kill('SIGTERM');
};
let hooksInstalled = false;

/** Registers a child to be signalled when this process exits. */
export function guardChild(child: ChildProcess): void {
  running.add(child);
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killAll);
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(name, function onSignal() {
      if (process.listenerCount(name) > 1) return;
      killAll();
      process.off(name, onSignal);
      process.kill(process.pid, name); // die by the signal, exactly as without this handler
    });
  }
}

export function releaseChild(child: ChildProcess): void {
  running.delete(child);
}

export async function writePidFile(dir: string, pid: number): Promise<void> {
  const record: PidRecord = { pid, owner: process.pid };
  await writeFile(join(dir, PID_FILE), JSON.stringify(record));
}

export async function removePidFile(dir: string): Promise<void> {
  await rm(join(dir, PID_FILE), { force: true });
}

/**
 * A pid file left by a runner that died without its exit hook: kill that JVM if it still runs,
 * is DynamoDB Local and serves this very folder (a recycled pid is left alone). A runner that is
 * still alive and owns it (a second `npm start` on the same data) is refused instead.
 */
export async function killStaleInstance(dbPath: string, jarName: string): Promise<void> {
  const pidFile = join(dbPath, PID_FILE);
  let recorded: PidRecord;
  try {
    recorded = JSON.parse(await readFile(pidFile, 'utf8')) as PidRecord;
  } catch {
    return; // no pid file (or unreadable garbage): nothing to clean up
  }
  const command = commandLine(recorded.pid);
  if (command?.includes(jarName) && command.includes(dbPath)) {
    if (isAlive(recorded.owner) && processStatus(recorded.pid)?.ppid === recorded.owner) {
      throw new Error(
        `DynamoDB Local data in ${dbPath} is in use by process ${recorded.owner} (java pid ${recorded.pid}). ` +
          'Stop that runner first, or use another data folder / in-memory mode.',
      );
    }
    await killAndWait(recorded.pid);
  }
  await rm(pidFile, { force: true });
}

async function killAndWait(pid: number): Promise<void> {
  signal(pid, 'SIGTERM');
  for (let waited = 0; isAlive(pid); waited += 100) {
    if (waited === GRACE_MS) signal(pid, 'SIGKILL');
    if (waited > 2 * GRACE_MS) throw new Error(`Cannot kill stale DynamoDB Local process ${pid}`);
    await sleep(100);
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed orphan stays a zombie until its new parent reaps it (some container inits are
  // slow to); it still answers signal 0 but is gone for our purposes.
  return processStatus(pid)?.state !== 'Z';
}

/** /proc on Linux, `ps` elsewhere (macOS); undefined when the process does not exist. */
function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return ps(pid, 'command');
  }
}

/** State letter and parent pid: /proc/<pid>/stat on Linux (fields after the command name), else `ps`. */
function processStatus(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    const [state = '', ppid] = (ps(pid, 'stat', 'ppid') ?? '').split(/\s+/);
    return state ? { state: state.charAt(0), ppid: Number(ppid) } : undefined;
  }
}

function ps(pid: number, ...columns: string[]): string | undefined {
  const format = columns.flatMap((column) => ['-o', `${column}=`]); // "=": no header line
  const result = spawnSync('ps', [...format, '-p', String(pid)], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() || undefined : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/**
 * Runs the real DynamoDB Local engine (a Java process) for `npm start` and the tests: checks Java,
 * gets the jar (dynamodb-jar.ts), starts the JVM on a free port and waits until it answers.
 * Keeping the JVM from outliving its runner is orphans.ts's job.
 */
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './credentials';
import { ensureDynamoDbLocal } from './dynamodb-jar';
import { guardChild, killStaleInstance, releaseChild, removePidFile, writePidFile } from './orphans';
import { freePort, portIsFree } from './ports';

export { ensureDynamoDbLocal } from './dynamodb-jar';

export interface DynamoDbLocalOptions {
  /** Data folder (created). Required unless inMemory; also holds the pid file when given. */
  dbPath?: string;
  inMemory: boolean;
  /** Fixed port; by default a free one is picked. */
  port?: number;
}

export interface DynamoDbLocal {
  endpoint: string;
  pid: number;
  /** SIGTERM, SIGKILL after a grace period; resolves once the process is gone. Idempotent. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;
const JAR = 'DynamoDBLocal.jar';

const INSTALL_HINT =
  'Install it: Debian/Ubuntu `sudo apt-get install openjdk-17-jre-headless`, ' +
  'macOS `brew install openjdk@17` (then put its bin/ on PATH).';

/** Throws unless `java` on PATH is Java 17 or newer; returns the major version. */
export async function assertJava17(): Promise<number> {
  const { output, error } = await new Promise<{ output: string; error?: Error }>((done) => {
    const child = spawn('java', ['-version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', (error) => done({ output, error }));
    child.once('close', () => done({ output }));
  });
  if (error) {
    throw new Error(`DynamoDB Local needs Java 17 or newer, but \`java\` was not found on PATH. ${INSTALL_HINT}`);
  }
  // `openjdk version "17.0.15"`, `java version "21"`, old style `java version "1.8.0_392"`.
  const match = /version "(\d+)(?:\.(\d+))?/.exec(output);
  const first = Number(match?.[1]);
  const major = first === 1 ? Number(match?.[2]) : first;
  if (!match || !Number.isFinite(major)) {
    throw new Error(
      `DynamoDB Local needs Java 17 or newer; cannot read the version from \`java -version\`:\n${output.trim()}\n${INSTALL_HINT}`,
    );
  }
  if (major < 17) {
    throw new Error(`DynamoDB Local needs Java 17 or newer, found Java ${major}. ${INSTALL_HINT}`);
  }
  return major;
}

export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  if (!options.inMemory && !options.dbPath) {
    throw new Error('startDynamoDbLocal: dbPath is required unless inMemory is true');
  }
  const dbPath = options.dbPath ? resolve(options.dbPath) : undefined;
  const [{ jarDir }] = await Promise.all([ensureDynamoDbLocal(), assertJava17()]);
  if (dbPath) {
    await mkdir(dbPath, { recursive: true });
    await killStaleInstance(dbPath, JAR);
  }
  // A picked port can be taken between our probe and the JVM's bind; pick again then.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    // Checked up front because the readiness poll would take any server answering there for ours.
    if (options.port !== undefined && !(await portIsFree(port))) {
      throw new Error(`DynamoDB Local: port ${port} is already in use`);
    }
    try {
      return await launch(jarDir, port, options.inMemory, dbPath);
    } catch (error) {
      const retry = error instanceof PortTakenError && options.port === undefined && attempt < 3;
      if (!retry) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function launch(jarDir: string, port: number, inMemory: boolean, dbPath: string | undefined): Promise<DynamoDbLocal> {
  const args = [
    // The serial GC uses less memory and fewer threads on a 2-core machine. The full tiered JIT
    // (no TieredStopAtLevel=1) costs a little start-up time but makes sustained write loads —
    // webhook bursts, price-table imports — about a third faster (docs/performance.md).
    '-XX:+UseSerialGC',
    `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`, // native sqlite4java libraries
    '-jar',
    join(jarDir, JAR),
    // One database for every access key and region, so no client can end up in a private copy.
    '-sharedDb',
    '-disableTelemetry', // no network assumed
    '-port',
    String(port),
    ...(inMemory ? ['-inMemory'] : ['-dbPath', dbPath as string]),
  ];
  // A process group of its own (detached): Ctrl-C in a terminal signals the whole foreground
  // group, and a JVM that got that SIGINT would exit (code 130) while the runner is still
  // stopping the gateway and the workers, which then read as a crash. This way only the runner
  // hears Ctrl-C and stops the JVM itself, last (stop() below); orphans.ts still signals it when
  // the runner exits any other way.
  const child = spawn('java', args, { cwd: jarDir, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let tail = '';
  const keepTail = (chunk: string) => (tail = (tail + chunk).slice(-4000));
  child.stdout.setEncoding('utf8').on('data', keepTail);
  child.stderr.setEncoding('utf8').on('data', keepTail);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let spawnFailed = false;
  const spawnError = new Promise<Error>((done) =>
    child.once('error', (error) => {
      spawnFailed = true;
      done(error);
    }),
  );
  guardChild(child);
  let stopping: Promise<void> | undefined;

  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        child.kill('SIGTERM');
        if (!(await within(exited, STOP_GRACE_MS))) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      releaseChild(child);
      if (dbPath) await removePidFile(dbPath);
    })());

  void exited.then(() => {
    releaseChild(child);
    if (!stopping) console.error(`DynamoDB Local exited unexpectedly (code ${child.exitCode}):\n${tail.trim()}`);
  });

  // Written at once, not when ready: a runner killed during start-up must not leave an unknown JVM.
  if (dbPath && child.pid !== undefined) await writePidFile(dbPath, child.pid);

  const endpoint = `http://127.0.0.1:${port}`;
  const hasExited = () => spawnFailed || child.exitCode !== null || child.signalCode !== null;
  // A JVM that cannot bind its port does not exit, it just logs and hangs; meanwhile someone
  // else's server on that port would answer our poll. So the log is checked on every poll.
  const bindFailed = () => /BindException|Address already in use|Failed to bind/i.test(tail);
  const outcome = await Promise.race([
    waitUntilAnswering(endpoint, () => hasExited() || bindFailed()).then((ok) =>
      ok && !bindFailed() ? ('ready' as const) : hasExited() ? ('exited' as const) : ('timeout' as const),
    ),
    spawnError,
  ]);
  if (outcome === 'ready' && child.pid !== undefined) {
    return { endpoint, pid: child.pid, stop };
  }
  stopping = Promise.resolve(); // failing start: silence the "exited unexpectedly" report
  child.kill('SIGKILL');
  await within(exited, STOP_GRACE_MS);
  releaseChild(child);
  if (dbPath) await removePidFile(dbPath);
  if (outcome instanceof Error) {
    throw new Error(`Cannot start DynamoDB Local (java): ${outcome.message}`, { cause: outcome });
  }
  if (bindFailed()) {
    throw new PortTakenError(`DynamoDB Local: port ${port} is already in use`);
  }
  const reason = outcome === 'exited' ? `exited with code ${child.exitCode}` : `did not answer within ${READY_TIMEOUT_MS / 1000}s`;
  throw new Error(`DynamoDB Local ${reason} (port ${port}). Java output:\n${tail.trim() || '(none)'}`);
}

/**
 * Polls ListTables until the engine answers (JVM start plus store load takes seconds). False when
 * the process died or the deadline passed.
 */
async function waitUntilAnswering(endpoint: string, hasExited: () => boolean): Promise<boolean> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    while (Date.now() < deadline && !hasExited()) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      } catch {
        await sleep(100);
      }
    }
    return false;
  } finally {
    client.destroy();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** True if `promise` settles within `ms`; the timer is cleared so it never delays the runner's exit. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      done(true);
    });
  });
}

/**
 * Webhook pipeline benchmark: the whole delivery path as `npm start` wires it — DynamoDB Local
 * (in memory), the SQS emulator, the workers of shared/workers.ts run by local-aws/workers.ts
 * (stream poller → EventRouter → deliveries queue → queue poller → WebhookDelivery) — with events
 * written through the real domain function (`createCustomer`, whose transaction writes the
 * customer and its outbox EVENT) and delivered to a loopback receiver that checks every signature.
 *
 * Runs, each on fresh accounts of their own:
 *
 * - **latency**: `latencyEvents` customer creations (after `warmupEvents` not counted), written one
 *   after the other at a steady pace (`latencyIntervalMs` between write starts), to one
 *   registration subscribed to `customer.created`. Latency of an event = the time its delivery
 *   has fully arrived at the receiver (`Date.now()` when the request body ends) − the time
 *   `createCustomer` resolved (its transaction, event included, is committed). Same clock, same
 *   process. First arrivals only (a retry's later arrival is not a latency sample).
 * - **warm-up** (not measured): `warmupThroughputEvents` events of the throughput load through the
 *   whole pipeline, so that the measured runs do not pay for DynamoDB Local's JIT compiling its
 *   hot paths (several seconds of a core in the first minute under load).
 * - **throughput** (the budget figure): `throughputEvents` customer creations to `registrations`
 *   registrations each (1,000 × 5 = 5,000 deliveries by default), all to the same receiver,
 *   written by `writers` tenants at once (8 by default), each with its own registrations and
 *   writing its share one customer after the other (concurrent creates of one tenant contend on
 *   its customer counter). They are written while the workers are paused — as an event source
 *   mapping is disabled: nothing is read, and reading goes on where it stopped — and the clock
 *   starts when the workers resume: elapsed = resume → arrival of the last expected delivery,
 *   deliveries/s = expected / elapsed. This is the pipeline's own capacity: on AWS the writes
 *   run elsewhere, here they would share the two cores and DynamoDB Local's one SQLite thread.
 * - **throughputWithWrites** (`withWrites: false` skips it): the same load written while the
 *   pipeline runs; elapsed = first write's start → last expected delivery. The pipeline keeps pace
 *   with the writes, so this mostly measures how fast 8 tenants can write on the same machine.
 *
 * In every run received, distinct delivery ids (`X-Webhook-Id`), duplicates (received − distinct)
 * and lost (expected − distinct) are counted; after the last expected delivery the receiver
 * listens `graceMs` more for late duplicates.
 *
 * The retry schedule is the tests' (`1,1,1`) for the duration of the run, so a failed attempt
 * shows up as a retry within seconds (counted in `retried`) instead of stalling for a minute.
 * The structured log level is WARN during the run (one INFO line per routed event and per
 * delivery would otherwise be printed; `logLevel` changes it).
 *
 * Everything it starts (engines, workers, receiver) is stopped before it returns or throws, and the
 * process environment, config, AWS clients and log level it changed are restored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeWebhookConnections } from '#shared/webhooks/http-post';
import { startEngines, type Engines } from '#local-aws/engines';
import { startWorkers, type Workers } from '#local-aws/workers';
import { createAccount, setPlan } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { dynamoBase, setDynamo } from '#shared/clients/dynamodb';
import { setSqs } from '#shared/clients/sqs';
import { resetConfig } from '#shared/config';
import { createCustomer } from '#shared/customers/service';
import { logger } from '#shared/logger';
import { createWebhook } from '#shared/webhooks/service';
import { percentile, round } from './stats';

export interface WebhookPipelineOptions {
  /** Latency run: events measured (default 200). */
  latencyEvents?: number;
  /** Latency run: events written first and not measured (JIT and connection warm-up; default 20). */
  warmupEvents?: number;
  /** Latency run: milliseconds between the starts of two writes (default 25, i.e. 40 events/s). */
  latencyIntervalMs?: number;
  /** Throughput run: events written (default 1,000). */
  throughputEvents?: number;
  /** Throughput run: registrations per tenant, each subscribed to every event (default 5). */
  registrations?: number;
  /** Throughput run: tenants writing at once, one write in flight each (default 8). */
  writers?: number;
  /** How long a run may wait for its deliveries after its last write (default 60 s). */
  drainTimeoutMs?: number;
  /** How long the receiver keeps counting after the last expected delivery (default 1 s). */
  graceMs?: number;
  /** Events of the (unmeasured) warm-up run before the throughput runs (default 300; 0 skips it). */
  warmupThroughputEvents?: number;
  /** Also measure the run with the writes (default true; about 15 s more). */
  withWrites?: boolean;
  /** Structured log level during the run (default WARN). */
  logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
  /** Progress lines on stderr (default true). */
  verbose?: boolean;
}

export interface LatencyFigures {
  /** Milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  n: number;
}

export interface RunFigures {
  eventsWritten: number;
  registrations: number;
  deliveriesExpected: number;
  deliveriesReceived: number;
  deliveriesDistinct: number;
  duplicates: number;
  lost: number;
  /** Deliveries whose body or signature did not verify (must be 0). */
  badSignatures: number;
  /** Requests with `X-Webhook-Attempt` > 1 (retries after a failed attempt). */
  retried: number;
  /** TCP connections the receiver accepted (kept-alive connections carry many deliveries). */
  receiverConnections: number;
  /** First write's start (throughput: the workers' resume) → last expected delivery (or the drain timeout). */
  elapsedSeconds: number;
  /** Seconds the writes alone took. */
  writeSeconds: number;
  deliveriesPerSecond: number;
  /** Write completion (throughput: the workers' resume) → arrival, first arrival of each delivery. */
  latencyMs: LatencyFigures;
  /** This process's CPU time (user + system) during the run, seconds. */
  cpuSeconds: number;
  /** DynamoDB Local's (Java) CPU time during the run, seconds (Linux only; null elsewhere). */
  dynamodbCpuSeconds: number | null;
  /**
   * The same by thread: `jit` (the HotSpot compilers, still busy well into a run), `sqlite` (the
   * one thread every read and write of DynamoDB Local goes through: its ceiling), `requests`
   * (Jetty's HTTP and JSON work, spread over threads), `other` (GC, VM).
   */
  dynamodbThreadCpuSeconds: JavaCpu | null;
  /**
   * CPU seconds the whole machine spent busy during the run (all cores, /proc/stat; null off
   * Linux): minus cpuSeconds and dynamodbCpuSeconds, what other processes took meanwhile.
   */
  machineBusyCpuSeconds: number | null;
  /** DynamoDB calls made through the shared client during the run (writes, router, delivery worker), by command. */
  dynamodbCalls: Record<string, number>;
  /** The drain run only: CPU seconds the writes took (this process, DynamoDB Local) while the workers were paused. */
  writeCpu: { cpuSeconds: number; dynamodbCpuSeconds: number | null } | null;
}

export interface WebhookPipelineFigures {
  latency: RunFigures & { intervalMs: number; warmupEvents: number };
  /** The budget figure: the load written with the workers paused, then drained; resume → last delivery. */
  throughput: RunFigures & { writers: number };
  /** The same load written while the pipeline runs, first write → last delivery (null when skipped). */
  throughputWithWrites: (RunFigures & { writers: number }) | null;
  /** The unmeasured warm-up run: events and seconds. */
  warmup: { events: number; seconds: number } | null;
  budgets: { latencyP50Ms: number; latencyP99Ms: number; deliveriesPerSecond: number };
  passed: { latencyP50: boolean; latencyP99: boolean; throughput: boolean; noneLost: boolean };
  /** Seconds for the whole section, engines included. */
  totalSeconds: number;
  machine: { cpus: number; loadAverage: number[] };
}

export const BUDGETS = { latencyP50Ms: 1000, latencyP99Ms: 3000, deliveriesPerSecond: 500 } as const;

// ---- receiver -----------------------------------------------------------------------------------

interface Arrival {
  at: number;
  attempt: number;
}

interface BenchReceiver {
  url(path: string): string;
  /** Path → the registration's secret (for signature checks) and its tenant's tag. */
  registrations: Map<string, { secret: string; tenant: string }>;
  /** Delivery id → its arrivals. */
  arrivals: Map<string, Arrival[]>;
  /** Delivery id → `<tenant tag>:<customer id>` from the body (to find the write it came from). */
  writeOf: Map<string, string>;
  received: number;
  badSignatures: number;
  retried: number;
  connections: number;
  /** Resolves when `distinct` delivery ids have arrived, or at `deadline` (epoch ms). */
  waitForDistinct(distinct: number, deadline: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

function verifyHex(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  // During a rotation several comma-separated signatures are sent; one match is enough.
  return header.split(',').some((candidate) => {
    const given = Buffer.from(candidate.trim(), 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

async function startBenchReceiver(): Promise<BenchReceiver> {
  let waiter: (() => void) | undefined;
  const state = {
    registrations: new Map<string, { secret: string; tenant: string }>(),
    arrivals: new Map<string, Arrival[]>(),
    writeOf: new Map<string, string>(),
    received: 0,
    badSignatures: 0,
    retried: 0,
    connections: 0,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks);
      const registration = state.registrations.get(req.url ?? '');
      const id = req.headers['x-webhook-id'];
      if (
        !registration ||
        typeof id !== 'string' ||
        !verifyHex(registration.secret, body, req.headers['x-webhook-signature'] as string | undefined)
      ) {
        state.badSignatures++;
        res.writeHead(401).end('bad signature');
        return;
      }
      let parsed: { id?: string; data?: { customer?: { id?: number } } };
      try {
        parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
      } catch {
        parsed = {};
      }
      if (parsed.id !== id) state.badSignatures++; // body and header must name the same delivery
      const attempt = Number(req.headers['x-webhook-attempt'] ?? 1);
      state.received++;
      if (attempt > 1) state.retried++;
      const list = state.arrivals.get(id);
      if (list) list.push({ at, attempt });
      else state.arrivals.set(id, [{ at, attempt }]);
      if (typeof parsed.data?.customer?.id === 'number') state.writeOf.set(id, `${registration.tenant}:${parsed.data.customer.id}`);
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      waiter?.();
    });
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...state,
    get received() {
      return state.received;
    },
    get badSignatures() {
      return state.badSignatures;
    },
    get retried() {
      return state.retried;
    },
    get connections() {
      return state.connections;
    },
    url: (path) => `http://127.0.0.1:${port}${path}`,
    async waitForDistinct(distinct, deadline) {
      while (state.arrivals.size < distinct && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(250, Math.max(0, deadline - Date.now())));
          waiter = () => {
            if (state.arrivals.size >= distinct) {
              clearTimeout(timer);
              resolve();
            }
          };
        });
      }
      waiter = undefined;
    },
    reset() {
      state.arrivals.clear();
      state.writeOf.clear();
      state.received = 0;
      state.badSignatures = 0;
      state.retried = 0;
      state.connections = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---- runs ---------------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function latencyFigures(samples: number[]): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : NaN;
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    mean: round(mean, 1),
    n: sorted.length,
  };
}

async function freshTenant(name: string): Promise<Tenant> {
  const created = await createAccount({ name, plan: 'enterprise' });
  await setPlan(created.account.id, 'enterprise', 10_000_000);
  return { accountId: created.account.id, mode: 'test' };
}

/** `count` registrations of the tenant tagged `tag`, at /<tag>/hooks/<n> on the receiver. */
async function registerAll(tenant: Tenant, receiver: BenchReceiver, count: number, tag: string): Promise<void> {
  for (let index = 1; index <= count; index++) {
    const path = `/${tag}/hooks/${index}`;
    const webhook = await createWebhook(tenant, {
      url: receiver.url(path),
      events: ['customer.created'],
      active: true,
      description: `bench ${tag} ${index}`,
    });
    receiver.registrations.set(path, { secret: webhook.secret, tenant: tag });
  }
}

function customerInput(run: string, index: number) {
  return { name: `Bench ${run} ${index}`, email: `bench-${run}-${index}-${Date.now().toString(36)}@example.com` };
}

interface Collected {
  figures: RunFigures;
}

/** DynamoDB calls by command (with the items they carried, for batches and transactions). */
const calls = new Map<string, number>();
let counting = false;

/** Counts every command sent through the shared DynamoDB client (shared/clients/dynamodb.ts). */
function countDynamoCalls(): void {
  dynamoBase().middlewareStack.add(
    (next, context) => async (args) => {
      if (counting) {
        const name = String(context.commandName).replace(/Command$/, '');
        calls.set(name, (calls.get(name) ?? 0) + 1);
        const input = args.input as { TransactItems?: unknown[]; RequestItems?: Record<string, { Keys?: unknown[] }> };
        const items =
          input.TransactItems?.length ??
          Object.values(input.RequestItems ?? {}).reduce((sum, request) => sum + (request.Keys?.length ?? 0), 0);
        if (items) calls.set(`${name} items`, (calls.get(`${name} items`) ?? 0) + items);
      }
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
}

function startCounting(): void {
  calls.clear();
  counting = true;
}

function stopCounting(): Record<string, number> {
  counting = false;
  return Object.fromEntries([...calls.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** Counts what the receiver saw once the run is over (or timed out). */
function collect(
  receiver: BenchReceiver,
  written: Map<string, number>,
  registrations: number,
  started: number,
  writesDone: number,
  lastArrival: number,
  cpu: { process: number; dynamodb: number | null; dynamodbThreads: JavaCpu | null; machine: number | null },
): Collected {
  const dynamodbCalls = stopCounting();
  const expected = written.size * registrations;
  const samples: number[] = [];
  for (const [id, arrivals] of receiver.arrivals) {
    const write = receiver.writeOf.get(id);
    const writtenAt = write === undefined ? undefined : written.get(write);
    // Events written while the workers were paused count from the resume.
    if (writtenAt !== undefined) samples.push(Math.min(...arrivals.map((arrival) => arrival.at)) - Math.max(writtenAt, started));
  }
  const distinct = receiver.arrivals.size;
  const elapsed = (lastArrival - started) / 1000;
  return {
    figures: {
      eventsWritten: written.size,
      registrations,
      deliveriesExpected: expected,
      deliveriesReceived: receiver.received,
      deliveriesDistinct: distinct,
      duplicates: receiver.received - distinct,
      lost: Math.max(0, expected - distinct),
      badSignatures: receiver.badSignatures,
      retried: receiver.retried,
      receiverConnections: receiver.connections,
      elapsedSeconds: round(elapsed, 3),
      writeSeconds: round((writesDone - started) / 1000, 3),
      deliveriesPerSecond: round(distinct / elapsed, 1),
      latencyMs: latencyFigures(samples),
      cpuSeconds: round(cpu.process, 2),
      dynamodbCpuSeconds: cpu.dynamodb === null ? null : round(cpu.dynamodb, 2),
      dynamodbThreadCpuSeconds: cpu.dynamodbThreads,
      machineBusyCpuSeconds: cpu.machine === null ? null : round(cpu.machine, 2),
      dynamodbCalls,
      writeCpu: null,
    },
  };
}

/** Name and CPU seconds (user + system) from a /proc …/stat line; the parent pid too. */
function parseStat(stat: string): { comm: string; ppid: number; seconds: number } {
  // pid (comm) state ppid … utime(14) stime(15): fields after the parenthesised name.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return {
    comm: stat.slice(stat.indexOf('(') + 1, close),
    ppid: Number(fields[1]),
    seconds: (Number(fields[11]) + Number(fields[12])) / 100,
  }; // USER_HZ is 100 on Linux
}

/** What a DynamoDB Local thread does, by its name: the JIT compilers, the one SQLite thread, Jetty's request threads, the rest. */
const threadGroup = (name: string): keyof JavaCpu =>
  /Compiler/.test(name) ? 'jit' : /^SQLite/.test(name) ? 'sqlite' : /^qtp/.test(name) ? 'requests' : 'other';

export interface JavaCpu {
  jit: number;
  sqlite: number;
  requests: number;
  other: number;
}

/** CPU seconds used so far by this process's Java children (DynamoDB Local), by thread group, from /proc; null off Linux. */
function childJavaCpu(): JavaCpu | null {
  try {
    const total: JavaCpu = { jit: 0, sqlite: 0, requests: 0, other: 0 };
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const process_ = parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
        if (process_.comm !== 'java' || process_.ppid !== process.pid) continue;
        for (const task of readdirSync(`/proc/${entry}/task`)) {
          const thread = parseStat(readFileSync(`/proc/${entry}/task/${task}/stat`, 'utf8'));
          total[threadGroup(thread.comm)] += thread.seconds;
        }
      } catch {
        continue; // gone meanwhile
      }
    }
    return total;
  } catch {
    return null;
  }
}

const javaSeconds = (cpu: JavaCpu) => cpu.jit + cpu.sqlite + cpu.requests + cpu.other;

/** Busy CPU seconds of the whole machine so far (all cores), from /proc/stat; null off Linux. */
function machineBusySeconds(): number | null {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const ticks = fields.map(Number);
    const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0); // user … steal (guest is inside user)
    return (total - ticks[3]! - ticks[4]!) / 100; // minus idle and iowait
  } catch {
    return null;
  }
}

const cpuSecondsSince = (before: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
};

/** CPU counters at the start of a run; `since()` gives what was used from then on. */
function cpuMeter() {
  const process0 = process.cpuUsage();
  const java0 = childJavaCpu();
  const machine0 = machineBusySeconds();
  return {
    since() {
      const java = childJavaCpu();
      const machine = machineBusySeconds();
      const threads =
        java0 === null || java === null
          ? null
          : (Object.fromEntries(
              Object.entries(java).map(([group, seconds]) => [group, round(seconds - java0[group as keyof JavaCpu], 2)]),
            ) as unknown as JavaCpu);
      return {
        process: cpuSecondsSince(process0),
        dynamodb: threads === null ? null : javaSeconds(threads),
        dynamodbThreads: threads,
        machine: machine0 === null || machine === null ? null : machine - machine0,
      };
    },
  };
}

const lastArrivalOf = (receiver: BenchReceiver): number => {
  let last = 0;
  for (const arrivals of receiver.arrivals.values()) last = Math.max(last, arrivals[0]!.at);
  return last;
};

async function latencyRun(receiver: BenchReceiver, options: Required<WebhookPipelineOptions>): Promise<WebhookPipelineFigures['latency']> {
  const tenant = await freshTenant('Bench webhook latency');
  await registerAll(tenant, receiver, 1, 'latency');

  // Warm-up: the same path, not measured (DynamoDB Local's JIT, sockets, module caches).
  for (let index = 0; index < options.warmupEvents; index++) {
    await createCustomer(tenant, customerInput('warmup', index));
    await sleep(options.latencyIntervalMs);
  }
  await receiver.waitForDistinct(options.warmupEvents, Date.now() + options.drainTimeoutMs);
  await sleep(500);
  receiver.reset();

  const written = new Map<string, number>(); // `<tenant tag>:<customer id>` → write completion (epoch ms)
  const cpu = cpuMeter();
  startCounting();
  const started = Date.now();
  for (let index = 0; index < options.latencyEvents; index++) {
    const slot = started + index * options.latencyIntervalMs;
    if (slot > Date.now()) await sleep(slot - Date.now());
    const customer = await createCustomer(tenant, customerInput('latency', index));
    written.set(`latency:${customer.id}`, Date.now());
  }
  const writesDone = Date.now();
  await receiver.waitForDistinct(written.size, writesDone + options.drainTimeoutMs);
  const lastArrival = receiver.arrivals.size >= written.size ? lastArrivalOf(receiver) : Date.now();
  await sleep(options.graceMs);
  const { figures } = collect(receiver, written, 1, started, writesDone, lastArrival, cpu.since());
  return { ...figures, intervalMs: options.latencyIntervalMs, warmupEvents: options.warmupEvents };
}

/** Pauses and resumes the workers (stream poller, queue pollers) between runs. */
interface WorkerControl {
  pause(): Promise<void>;
  resume(): void;
}

/**
 * `drain` (the budget figure): the events are written with the workers paused and the clock
 * starts when they resume, so the figure is the pipeline's own capacity, without the writes'
 * share of the machine (reported as `writeCpu`). `with-writes`: the pipeline runs while the
 * events are written; the clock starts with the first write.
 */
async function throughputRun(
  receiver: BenchReceiver,
  options: Required<WebhookPipelineOptions>,
  mode: 'drain' | 'with-writes' | 'warm-up',
  workers: WorkerControl,
  eventCount = options.throughputEvents,
): Promise<WebhookPipelineFigures['throughput']> {
  receiver.reset();
  const writers = Math.max(1, Math.min(options.writers, eventCount));
  const tenants: { tag: string; tenant: Tenant; events: number }[] = [];
  for (let index = 0; index < writers; index++) {
    const tag = `${mode}-${index + 1}`;
    const tenant = await freshTenant(`Bench webhook ${tag}`);
    await registerAll(tenant, receiver, options.registrations, tag);
    // The events split as evenly as they go: 1,000 over 8 writers is 125 each.
    tenants.push({ tag, tenant, events: Math.floor(eventCount / writers) + (index < eventCount % writers ? 1 : 0) });
  }

  const written = new Map<string, number>();
  const write = () =>
    Promise.all(
      tenants.map(async ({ tag, tenant, events }) => {
        for (let index = 0; index < events; index++) {
          const customer = await createCustomer(tenant, customerInput(tag, index));
          written.set(`${tag}:${customer.id}`, Date.now());
        }
      }),
    );
  let cpu = cpuMeter();
  startCounting();
  let started = Date.now();
  let writeSeconds: number | undefined;
  let writeCpu: RunFigures['writeCpu'] = null;
  if (mode === 'drain') {
    await workers.pause();
    cpu = cpuMeter();
    started = Date.now();
    await write();
    writeSeconds = (Date.now() - started) / 1000;
    const used = cpu.since();
    writeCpu = { cpuSeconds: round(used.process, 2), dynamodbCpuSeconds: used.dynamodb === null ? null : round(used.dynamodb, 2) };
    cpu = cpuMeter();
    startCounting();
    started = Date.now();
    workers.resume();
  } else {
    await write();
  }
  const writesDone = Date.now();
  const expected = written.size * options.registrations;
  await receiver.waitForDistinct(expected, writesDone + options.drainTimeoutMs);
  const lastArrival = receiver.arrivals.size >= expected ? lastArrivalOf(receiver) : Date.now();
  await sleep(options.graceMs);
  const { figures } = collect(receiver, written, options.registrations, started, writesDone, lastArrival, cpu.since());
  return { ...figures, ...(writeSeconds === undefined ? {} : { writeSeconds: round(writeSeconds, 3) }), writeCpu, writers };
}

// ---- environment --------------------------------------------------------------------------------

/** Sets env variables and returns how to put the previous values back. */
function overrideEnv(values: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** Config and the shared AWS clients are created from the environment on first use: forget them. */
function forgetClients(): void {
  resetConfig();
  setDynamo(undefined);
  setSqs(undefined);
}

export async function benchWebhookPipeline(options: WebhookPipelineOptions = {}): Promise<WebhookPipelineFigures> {
  const settings: Required<WebhookPipelineOptions> = {
    latencyEvents: 200,
    warmupEvents: 20,
    latencyIntervalMs: 25,
    throughputEvents: 1000,
    registrations: 5,
    writers: 8,
    drainTimeoutMs: 60_000,
    graceMs: 1000,
    warmupThroughputEvents: 300,
    withWrites: true,
    logLevel: 'WARN',
    verbose: true,
    // Options given as undefined keep their default.
    ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
  };
  const say = (message: string) => settings.verbose && console.error(`[bench:webhooks] ${message}`);
  const sectionStarted = Date.now();
  const previousLevel = logger.getLevelName();
  logger.setLogLevel(settings.logLevel);
  const restoreRetry = overrideEnv({ WEBHOOK_RETRY_SCHEDULE: '1,1,1' });

  let dataDir: string | undefined;
  let engines: Engines | undefined;
  let workers: Workers | undefined;
  let receiver: BenchReceiver | undefined;
  const control: WorkerControl = {
    pause: () => workers!.pause(),
    resume: () => workers!.resume(),
  };
  let restoreEngineEnv: (() => void) | undefined;
  try {
    dataDir = await mkdtemp(join(tmpdir(), 'print-shop-bench-webhooks-'));
    say('starting DynamoDB Local, SQS and S3 emulators (in memory)…');
    engines = await startEngines({ dataDir, inMemory: true, stage: 'bench' });
    restoreEngineEnv = overrideEnv(engines.env);
    forgetClients();
    countDynamoCalls();
    workers = await startWorkers({ endpoints: engines.endpoints, resources: engines.resources });
    receiver = await startBenchReceiver();

    say(
      `latency: ${settings.warmupEvents} warm-up + ${settings.latencyEvents} events, one every ${settings.latencyIntervalMs} ms, 1 registration…`,
    );
    const latency = await latencyRun(receiver, settings);
    say(`latency: p50 ${latency.latencyMs.p50} ms, p99 ${latency.latencyMs.p99} ms, lost ${latency.lost}`);

    let warmup: WebhookPipelineFigures['warmup'] = null;
    if (settings.warmupThroughputEvents > 0) {
      say(`warm-up: ${settings.warmupThroughputEvents} events × ${settings.registrations} registrations (not measured)…`);
      const run = await throughputRun(receiver, settings, 'warm-up', control, settings.warmupThroughputEvents);
      warmup = { events: run.eventsWritten, seconds: run.elapsedSeconds };
    }

    say(
      `throughput: ${settings.throughputEvents} events × ${settings.registrations} registrations written by ${settings.writers} tenants with the workers paused, then drained…`,
    );
    const throughput = await throughputRun(receiver, settings, 'drain', control);
    say(
      `throughput: ${throughput.deliveriesPerSecond} deliveries/s over ${throughput.elapsedSeconds} s, lost ${throughput.lost}, duplicates ${throughput.duplicates}`,
    );

    let throughputWithWrites: WebhookPipelineFigures['throughputWithWrites'] = null;
    if (settings.withWrites) {
      say(`with writes: the same load written while the pipeline runs…`);
      throughputWithWrites = await throughputRun(receiver, settings, 'with-writes', control);
      say(
        `with writes: ${throughputWithWrites.deliveriesPerSecond} deliveries/s over ${throughputWithWrites.elapsedSeconds} s, lost ${throughputWithWrites.lost}, duplicates ${throughputWithWrites.duplicates}`,
      );
    }

    const { cpus, loadavg } = await import('node:os');
    return {
      latency,
      throughput,
      throughputWithWrites,
      warmup,
      budgets: { ...BUDGETS },
      passed: {
        latencyP50: latency.latencyMs.p50 <= BUDGETS.latencyP50Ms,
        latencyP99: latency.latencyMs.p99 <= BUDGETS.latencyP99Ms,
        throughput: throughput.deliveriesPerSecond >= BUDGETS.deliveriesPerSecond,
        noneLost: [latency, throughput, throughputWithWrites].every((run) => !run || (run.lost === 0 && run.badSignatures === 0)),
      },
      totalSeconds: round((Date.now() - sectionStarted) / 1000, 1),
      machine: { cpus: cpus().length, loadAverage: loadavg().map((value) => round(value, 2)) },
    };
  } finally {
    // Receiver and workers first (in-flight deliveries finish), then the engines under them.
    await receiver?.close().catch(() => undefined);
    closeWebhookConnections(); // the delivery worker's kept-alive sockets to the receiver
    await workers?.stop().catch((error: unknown) => console.error('[bench:webhooks] stopping the workers:', error));
    await engines?.stop().catch((error: unknown) => console.error('[bench:webhooks] stopping the engines:', error));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    restoreEngineEnv?.();
    restoreRetry();
    forgetClients();
    logger.setLogLevel(previousLevel as 'WARN');
  }
}

/**
 * Counts DynamoDB calls per invocation in the local runtime: an SDK middleware on the one shared
 * client records each command into the invocation's AsyncLocalStorage context, and the local
 * gateway aggregates them per route (recordRouteCalls), so integration tests can hold every route
 * to a call budget and the benchmark can print calls per route. With LOCAL_DEBUG_HEADERS=1 (the
 * tests' global setup and the benchmark set it) the gateway also reports each response's calls in
 * `X-Local-DynamoDB-Calls` / `X-Local-DynamoDB-Commands`.
 *
 * A read also records how many items DynamoDB read for it, in brackets after its name —
 * `Query[26]` (ScannedCount: what a filter expression or `Select: COUNT` read too),
 * `BatchGetItem[25]`, `GetItem[1]` — so a test can hold a route to a number of items per
 * request, not only of calls (`itemsRead` below). Route aggregates keep the bare names.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamoBase } from '#shared/clients/dynamodb';

interface CallLog {
  commands: string[];
}

const storage = new AsyncLocalStorage<CallLog>();
let installed = false;

export function installCallCounter(): void {
  if (installed) return;
  installed = true;
  dynamoBase().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: { sk?: unknown } };
      // The rate limiter's block reservations are amortised over many requests (one per 1 to 50,
      // at random moments): counted apart, so a route's figure is its own work.
      const sk = input.Key?.sk;
      const limiter = typeof sk === 'string' ? /^(minute|hour)#/.test(sk) : (sk as { S?: string } | undefined)?.S?.match(/^(minute|hour)#/);
      const name = String(context.commandName).replace(/Command$/, '');
      const log = storage.getStore();
      log?.commands.push(limiter ? `${name}(limiter)` : name);
      const index = (log?.commands.length ?? 0) - 1;
      const result = await next(args);
      const items = limiter ? undefined : itemsOf(result.output as ReadOutput);
      if (log && items !== undefined) log.commands[index] = `${name}[${items}]`;
      return result;
    },
    { step: 'initialize', name: 'localCallCounter' },
  );
}

interface ReadOutput {
  ScannedCount?: number;
  Count?: number;
  Items?: unknown[];
  Item?: unknown;
  Responses?: Record<string, unknown[]> | unknown[];
}

/** Items a read's answer says DynamoDB read: undefined for writes. */
function itemsOf(output: ReadOutput | undefined): number | undefined {
  if (!output) return undefined;
  if (output.ScannedCount !== undefined) return output.ScannedCount;
  if (output.Count !== undefined) return output.Count;
  if (output.Items) return output.Items.length;
  if ('Item' in output) return output.Item ? 1 : 0;
  if (Array.isArray(output.Responses)) return output.Responses.length; // TransactGetItems
  if (output.Responses) return Object.values(output.Responses).reduce((sum, items) => sum + items.length, 0); // BatchGetItem
  return undefined;
}

/** The command's name without its item count (`Query[26]` → `Query`). */
export const commandName = (command: string): string => command.replace(/\[\d+\]$/, '');

/** Items read in all: the sum of the bracketed counts of a list of commands (as in `X-Local-DynamoDB-Commands`). */
export const itemsRead = (commands: readonly string[]): number =>
  commands.reduce((sum, command) => sum + Number(/\[(\d+)\]$/.exec(command)?.[1] ?? 0), 0);

/** Runs `work` and returns its result with the DynamoDB commands it sent. */
export async function countCalls<T>(work: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const log: CallLog = { commands: [] };
  const result = await storage.run(log, work);
  return { result, commands: log.commands };
}

export interface RouteCalls {
  requests: number;
  /** Calls per successful (2xx) request, in order seen. */
  successCalls: number[];
  commands: Record<string, number>;
}

const byRoute = new Map<string, RouteCalls>();

/** Aggregates one invocation's calls under its route (the benchmark and the call budgets read this). */
export function recordRouteCalls(routeId: string, status: number, commands: string[]): void {
  const entry = byRoute.get(routeId) ?? { requests: 0, successCalls: [], commands: {} };
  entry.requests++;
  if (status >= 200 && status < 300) entry.successCalls.push(commands.length);
  for (const command of commands.map(commandName)) entry.commands[command] = (entry.commands[command] ?? 0) + 1;
  byRoute.set(routeId, entry);
}

export const routeCalls = (): Record<string, RouteCalls> => Object.fromEntries(byRoute);

/**
 * Starts the local stack once for the integration and fuzz projects: the three engines in memory
 * on free ports, the local gateway on a free port, and a few accounts and keys for the tests.
 *
 * Both projects' global setups run in vitest's main process, where a second stack would overwrite
 * the first one's environment (endpoints, table name): the first setup starts the stack, the other
 * attaches to it (found on globalThis, since each project loads this module apart), and the last
 * teardown stops it — after checking the DynamoDB call budgets over both projects' requests.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { resetConfig } from '#shared/config';
import { startEngines } from '#local-aws/engines';
import { startGateway } from '#local-aws/gateway';
import { routeCalls } from '#local-aws/dynamodb-calls';
import { checkCallBudgets } from './call-budgets';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { startWorkers } from '#local-aws/workers';
import { createAccount, createApiKey, setPlan } from '#shared/accounts/service';
import { ensureSigningKeys } from '#shared/customer-auth/key-store';
import type { Fixtures } from './fixtures';

interface SharedStack {
  fixtures: Fixtures;
  /** Projects using the stack: the last one to finish stops it. */
  users: number;
  stop: () => Promise<void>;
}

const SHARED = Symbol.for('print-shop-api.test-stack');
const registry = globalThis as { [SHARED]?: Promise<SharedStack> };

export default async function setup(project: TestProject) {
  registry[SHARED] ??= startStack();
  const stack = await registry[SHARED];
  stack.users += 1;
  project.provide('fixtures', stack.fixtures);
  return async () => {
    stack.users -= 1;
    if (stack.users > 0) return;
    delete registry[SHARED];
    await stack.stop();
  };
}

async function startStack(): Promise<SharedStack> {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  // Webhook retries after 1 s, 1 s, 1 s (4 attempts) instead of minutes to hours.
  process.env.WEBHOOK_RETRY_SCHEDULE ??= '1,1,1';
  // A Sendcloud (the tests' fake) that does not answer costs 4 s per operation instead of 20 s.
  process.env.SENDCLOUD_DEADLINE_MS ??= '4000';
  process.env.SENDCLOUD_REQUEST_TIMEOUT_MS ??= '1500';
  // Customer passwords hashed with scrypt at N = 2^12 (4 MiB, a few ms) instead of production's 2^17
  // (128 MiB, ~250 ms each): the same code, a cost the suite can pay on every registration and login.
  // Read only in local mode (shared/customer-auth/passwords.ts); test/unit/customer-auth.test.ts holds production's.
  const scryptLogN = (process.env.TEST_SCRYPT_LOG_N ??= '12');
  const dataDir = await mkdtemp(join(tmpdir(), 'print-shop-test-'));
  const engines = await startEngines({ dataDir, inMemory: true, stage: 'test' });
  Object.assign(process.env, engines.env);
  resetConfig();
  // With the X-Local-DynamoDB-* headers (opt-in, LOCAL_DEBUG_HEADERS): tests may read a response's DynamoDB calls.
  const gateway = await startGateway({ port: 0, debugHeaders: true });
  // The workers (stream router, webhook delivery, DLQ handler, sweepers, preflight), as `npm start` runs them.
  const workers = await startWorkers({ endpoints: engines.endpoints, resources: engines.resources });

  // The stage's customer-token signing keys: an operator's step (routes only read them).
  await ensureSigningKeys();
  const shop = await createAccount({ name: 'Test Shop', plan: 'professional' });
  const other = await createAccount({ name: 'Other Shop', plan: 'starter' });
  // The shared fixture accounts get a very high custom limit so that ordinary tests never meet
  // the rate limiter; rate-limit tests create accounts of their own.
  await setPlan(shop.account.id, 'enterprise', 1_000_000);
  await setPlan(other.account.id, 'enterprise', 1_000_000);
  const readOnly = await createApiKey({ accountId: shop.account.id, mode: 'test', kind: 'secret', scopes: ['customers:read'] });
  const swiss = await createAccount({ name: 'Swiss Shop', plan: 'professional', currency: 'CHF', taxRate: 7.7 });
  await setPlan(swiss.account.id, 'enterprise', 1_000_000);
  const productsReadOnly = await createApiKey({ accountId: swiss.account.id, mode: 'test', kind: 'secret', scopes: ['products:read'] });

  const calledOperationsDir = join(dataDir, 'called-operations');
  await mkdir(calledOperationsDir);
  const fixtures: Fixtures = {
    calledOperationsDir,
    api: gateway.url.replace('localhost', '127.0.0.1'),
    env: { ...engines.env, TEST_SCRYPT_LOG_N: scryptLogN },
    shop: {
      accountId: shop.account.id,
      secretTest: shop.keys.secret_test.key,
      secretLive: shop.keys.secret_live.key,
      publishableTest: shop.keys.publishable_test.key,
      customersReadOnly: readOnly.key,
    },
    other: { accountId: other.account.id, secretTest: other.keys.secret_test.key },
    swiss: {
      accountId: swiss.account.id,
      secretTest: swiss.keys.secret_test.key,
      publishableTest: swiss.keys.publishable_test.key,
      productsReadOnly: productsReadOnly.key,
    },
  };
  return {
    fixtures,
    users: 0,
    stop: async () => {
      await reportNeverCalled(calledOperationsDir);
      await gateway.close();
      await workers.stop();
      await engines.stop();
      await rm(dataDir, { recursive: true, force: true });
      // DynamoDB calls per route over the whole run: written for the benchmark, held to the budgets.
      checkCallBudgets(routeCalls(), process.env.DYNAMODB_CALLS_FILE);
    },
  };
}

/**
 * The documented operations no test's `call()` reached over the run (test/support/contract-check.ts
 * records them): their answers were never checked against the document. Printed, and written to
 * NEVER_CALLED_OPERATIONS_FILE when set. A run of some files only lists most operations.
 */
async function reportNeverCalled(dir: string): Promise<void> {
  const called = new Set<string>();
  for (const file of await readdir(dir)) for (const id of (await readFile(join(dir, file), 'utf8')).split('\n')) if (id) called.add(id);
  const paths = buildOpenApiDocument().paths ?? {};
  const documented = Object.values(paths).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string }>).flatMap((operation) =>
      operation.operationId ? [operation.operationId] : [],
    ),
  );
  const never = documented.filter((id) => !called.has(id));
  if (process.env.NEVER_CALLED_OPERATIONS_FILE) await writeFile(process.env.NEVER_CALLED_OPERATIONS_FILE, never.join('\n') + '\n');
  console.log(
    `Contract check: ${documented.length - never.length} of ${documented.length} operations called; never called: ${never.join(', ') || 'none'}`,
  );
}

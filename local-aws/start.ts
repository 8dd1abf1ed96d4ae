/**
 * `npm start`: the whole system on one machine, no AWS account. Starts DynamoDB Local, the SQS
 * and S3 emulators, creates the resources from the definitions CDK uses, and serves the API on
 * http://localhost:3000 (PORT overrides). Data persists under .data/ (DATA_DIR overrides);
 * `npm start -- --in-memory` keeps nothing but the mail it writes to .data/mail/ (never sent).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { env, resetConfig } from '#shared/config';
import { mailEnv } from '#shared/mail/config';
import { createAccount, getAccount } from '#shared/accounts/service';
import { ensureSigningKeys } from '#shared/customer-auth/key-store';
import { adminDistDir, ensureAdminBuilt } from './admin-build';
import { startEngines, type Engines } from './engines';
import { startGateway, type Gateway } from './gateway';
import { startWorkers, type Workers } from './workers';
import { registerRunningStack, unregisterRunningStack } from './running-stacks';
import { dataDir, demoAccountFile, removeEndpoints, writeEndpoints } from './state';

const inMemory = process.argv.includes('--in-memory');
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dir = dataDir();

let engines: Engines | undefined;
let gateway: Gateway | undefined;
let workers: Workers | undefined;
let stopping = false;

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping…`);
  await gateway?.close().catch(() => undefined);
  await workers?.stop().catch((error: unknown) => console.error('while stopping the workers:', error));
  await engines?.stop().catch((error: unknown) => console.error('while stopping the engines:', error));
  removeFiles();
  console.log('stopped.');
  process.exit(0);
}

/** The files that tell other tools (the accounts CLI) that this stack runs. */
function removeFiles() {
  removeEndpoints(dir);
  unregisterRunningStack();
}

process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

async function ensureDemoAccount(): Promise<void> {
  const file = demoAccountFile(dir);
  if (!inMemory && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { account: { id: string } };
    if (await getAccount(saved.account.id)) {
      console.log(`Demo account ${saved.account.id}: its keys are in ${file}`);
      return;
    }
  }
  const created = await createAccount({ name: 'Demo Print Shop', plan: 'professional' });
  if (!inMemory) writeFileSync(file, JSON.stringify(created, null, 2) + '\n', { mode: 0o600 });
  console.log(`Demo account ${created.account.id} created${inMemory ? '' : ` (keys saved to ${file})`}:`);
  for (const [name, key] of Object.entries(created.keys)) console.log(`  ${name.padEnd(17)} ${key.key}`);
}

async function main() {
  const started = Date.now();
  console.log(`Starting the local stack (${inMemory ? 'in memory' : `data in ${dir}`})…`);
  // The admin panel is (re)built while the engines start, when admin/dist is missing or stale.
  const adminBuild = ensureAdminBuilt({ quiet: true }).catch((error: unknown) =>
    console.error(`The admin panel could not be built (${error instanceof Error ? error.message : error}); the API runs without it.`),
  );
  engines = await startEngines({ dataDir: dir, inMemory, stage: 'local' });
  Object.assign(process.env, engines.env);
  resetConfig();
  // What the accounts CLI does on AWS: the stage's customer-token signing keys (routes only read them).
  await ensureSigningKeys();
  await adminBuild;
  gateway = await startGateway({ port, host, adminDir: adminDistDir });
  // Customer access tokens name the API they come from (`iss`), as on AWS.
  process.env[env.tokenIssuer] ??= gateway.url;
  // Stream router, webhook delivery, DLQ handler, the two sweepers and the file preflight (shared/workers.ts), as deployed.
  workers = await startWorkers({ endpoints: engines.endpoints, resources: engines.resources });
  writeEndpoints({ pid: process.pid, api: gateway.url, inMemory, env: engines.env }, dir);
  // So the accounts CLI finds this stack whatever DATA_DIR it runs with (running-stacks.ts).
  registerRunningStack({ dataDir: dir, api: gateway.url, inMemory });
  await ensureDemoAccount();
  console.log(`\nPrint Shop API listening on ${gateway.url} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`  try: curl -H "Authorization: Bearer <secret_test key>" ${gateway.url}/v1/customers`);
  console.log(`  Admin panel: ${gateway.url}/admin (sign in with the secret_test key)`);
  console.log(`  Email is not sent: each message is written to ${engines.env[mailEnv.mailDir]} as an .eml file.`);
  console.log(`  OpenAPI: ${gateway.url}/v1/openapi.json — Ctrl-C stops everything.`);
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  await workers?.stop().catch(() => undefined);
  await engines?.stop().catch(() => undefined);
  removeFiles();
  process.exit(1);
});

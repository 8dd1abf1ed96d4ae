/**
 * The end-to-end tests' local stack, run as a child process of the global setup: the engines in
 * memory, the gateway serving the API and /admin, the delivery workers, and an account with keys.
 * A process of its own, because the stack's configuration lives in process.env and module state:
 * sharing vitest's main process with the integration project's stack would mix the two.
 *
 * Prints one line `READY <json>` with the fixtures, and stops everything on SIGTERM or SIGINT.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminDistDir } from '#local-aws/admin-build';
import { startEngines } from '#local-aws/engines';
import { startGateway } from '#local-aws/gateway';
import { startWorkers } from '#local-aws/workers';
import { createAccount, createApiKey, setPlan } from '#shared/accounts/service';
import { resetConfig } from '#shared/config';
import { ensureSigningKeys } from '#shared/customer-auth/key-store';
import type { E2eFixtures } from './fixtures';

// Two quick retries, then a long wait, so a failing receiver shows "Retrying" with a next retry time.
process.env.WEBHOOK_RETRY_SCHEDULE = '1,1,300';

const dataDir = await mkdtemp(join(tmpdir(), 'print-shop-e2e-'));
const engines = await startEngines({ dataDir, inMemory: true, stage: 'test' });
Object.assign(process.env, engines.env);
resetConfig();
await ensureSigningKeys();
const gateway = await startGateway({ port: 0, adminDir: adminDistDir });
const workers = await startWorkers({ endpoints: engines.endpoints, resources: engines.resources });

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await gateway.close().catch(() => undefined);
  await workers.stop().catch(() => undefined);
  await engines.stop().catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
// The parent's end (even a crash) closes our stdin: never outlive it.
process.stdin.on('close', () => void stop());
process.stdin.resume();

const shop = await createAccount({ name: 'Druckerei Schmidt', plan: 'professional' });
await setPlan(shop.account.id, 'enterprise', 1_000_000);
const withoutWebhooks = await createApiKey({
  accountId: shop.account.id,
  mode: 'test',
  kind: 'secret',
  scopes: ['customers:read', 'orders:read'],
});
const revocable = await createApiKey({ accountId: shop.account.id, mode: 'test', kind: 'secret', scopes: ['webhooks:read'] });

// The shop's day (orders, production, invoices, shipments) in an account of its own, so its
// webhook and orders never meet the webhook tests' (the test files run side by side).
const day = await createAccount({ name: 'Druckerei am Hafen', plan: 'professional' });
await setPlan(day.account.id, 'enterprise', 1_000_000);
const ordersOnly = await createApiKey({ accountId: day.account.id, mode: 'test', kind: 'secret', scopes: ['orders:read'] });

const fixtures: E2eFixtures = {
  origin: gateway.url,
  env: engines.env,
  shop: {
    accountId: shop.account.id,
    name: shop.account.name,
    secretTest: shop.keys.secret_test.key,
    withoutWebhooks: withoutWebhooks.key,
    revocable: { id: revocable.key_id, key: revocable.key },
  },
  day: { accountId: day.account.id, name: day.account.name, secretTest: day.keys.secret_test.key, ordersOnly: ordersOnly.key },
};
process.stdout.write(`READY ${JSON.stringify(fixtures)}\n`);

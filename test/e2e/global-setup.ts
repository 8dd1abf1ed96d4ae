/**
 * The end-to-end project's stack: the admin panel built (when stale), the three engines in memory,
 * the local gateway serving the API and /admin, the workers that deliver webhooks, and an account
 * with keys for the tests. Webhook retries are seconds apart instead of minutes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { adminDistDir, ensureAdminBuilt } from '../../scripts/local/admin-build';
import { startEngines } from '../../scripts/local/engines';
import { startGateway } from '../../scripts/local/gateway';
import { startWorkers } from '../../scripts/local/workers';
import { resetConfig } from '../../shared/config';
import { createAccount, createApiKey, setPlan } from '../../shared/accounts/service';
import type { E2eFixtures } from './fixtures';

export default async function setup(project: TestProject) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  // Two quick retries, then a long wait, so a failing receiver shows "Retrying" with a next retry time.
  process.env.WEBHOOK_RETRY_SCHEDULE = '1,1,300';
  const dataDir = await mkdtemp(join(tmpdir(), 'print-shop-e2e-'));
  const [, engines] = await Promise.all([ensureAdminBuilt({ quiet: true }), startEngines({ dataDir, inMemory: true, stage: 'test' })]);
  Object.assign(process.env, engines.env);
  resetConfig();
  const gateway = await startGateway({ port: 0, adminDir: adminDistDir });
  const workers = await startWorkers({ endpoints: engines.endpoints, resources: engines.resources });

  const shop = await createAccount({ name: 'Druckerei Schmidt', plan: 'professional' });
  await setPlan(shop.account.id, 'enterprise', 1_000_000);
  const withoutWebhooks = await createApiKey({ accountId: shop.account.id, mode: 'test', kind: 'secret', scopes: ['customers:read', 'orders:read'] });
  const revocable = await createApiKey({ accountId: shop.account.id, mode: 'test', kind: 'secret', scopes: ['webhooks:read'] });

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
  };
  project.provide('e2e', fixtures);

  return async () => {
    await gateway.close();
    await workers.stop();
    await engines.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

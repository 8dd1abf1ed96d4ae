/**
 * The accounts CLI's usage keys on a deployed stage (scripts/aws/usage-keys.ts), against a fake
 * API Gateway client: which keys are created, in which usage plans, and what is replaced when a
 * figure changes. No AWS account needed.
 */
import { describe, expect, it } from 'vitest';
import { plans, usagePlanName } from '#shared/accounts/plans';
import { usageKeyOf, type AccountRecord as Account } from '#shared/accounts/service';
import { AUTHORIZER_CACHE_MS, usageKeyManager, type ApiGatewayPort } from '#scripts/aws/usage-keys';

/** An in-memory API Gateway: usage plans by name, API keys, and which plan each key is registered in. */
function fakeApiGateway(stage: string) {
  const plansById = new Map<string, string>();
  let ids = 0;
  for (const tier of [100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 'unthrottled'] as const) {
    plansById.set(`up-${ids++}`, usagePlanName(stage, tier));
  }
  const keys = new Map<string, { value: string; plans: string[] }>();
  const calls: string[] = [];
  const client: ApiGatewayPort = {
    async send(command) {
      const input = command.input as Record<string, unknown>;
      const name = command.constructor.name.replace(/Command$/, '');
      calls.push(name);
      switch (name) {
        case 'GetUsagePlans':
          return { items: [...plansById].map(([id, planName]) => ({ id, name: planName })) };
        case 'CreateApiKey': {
          const id = `ak-${ids++}`;
          keys.set(id, { value: String(input.value), plans: [] });
          return { id };
        }
        case 'CreateUsagePlanKey': {
          const key = keys.get(String(input.keyId))!;
          // API Gateway: a key sits in one usage plan per API stage.
          if (key.plans.length) throw Object.assign(new Error('cannot reference multiple usage plans'), { name: 'ConflictException' });
          key.plans.push(plansById.get(String(input.usagePlanId))!);
          return {};
        }
        case 'DeleteApiKey':
          if (!keys.delete(String(input.apiKey))) throw Object.assign(new Error('gone'), { name: 'NotFoundException' });
          return {};
        default:
          throw new Error(`unexpected ${name}`);
      }
    },
  };
  return { client, keys, calls };
}

const account = (overrides: Partial<Account> = {}): Account => ({
  id: 'acct_1',
  plan: 'starter',
  rate_limit_per_minute: null,
  rate_limit_per_hour: null,
  usage_key_id: null,
  usage_key: null,
  usage_keys: [],
  currency: 'EUR',
  tax_rate: 19,
  placeholder_image_url: null,
  allowed_ips: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('usage keys on a deployed stage', () => {
  it('gives a new account four keys, one per mode and key kind, each in the usage plan of its tier', async () => {
    const gateway = fakeApiGateway('dev');
    const { usageKeys, replaced } = await usageKeyManager('dev', { client: gateway.client }).sync(account(), plans.starter);
    expect(replaced).toEqual([]);
    expect(usageKeys.map((key) => `${key.mode}/${key.kind} ${key.usage_plan}`)).toEqual([
      'test/secret print-shop-dev-tier-100',
      'test/publishable print-shop-dev-tier-1000',
      'live/secret print-shop-dev-tier-100',
      'live/publishable print-shop-dev-tier-1000',
    ]);
    expect(new Set(usageKeys.map((key) => key.value)).size).toBe(4);
    for (const key of usageKeys) expect(gateway.keys.get(key.id)).toEqual({ value: key.value, plans: [key.usage_plan] });
    expect(gateway.calls.filter((call) => call === 'GetUsagePlans')).toHaveLength(1);
  });

  it('follows a custom figure: new keys in the tiers that hold it, the old ones deleted after the authorizer cache', async () => {
    const gateway = fakeApiGateway('prod');
    const manager = usageKeyManager('prod', { client: gateway.client, sleep: async () => undefined });
    const before = account({ usage_keys: (await manager.sync(account(), plans.starter)).usageKeys });
    const { usageKeys, replaced } = await manager.sync(before, 2000);
    expect(usageKeys.map((key) => key.usage_plan)).toEqual([
      'print-shop-prod-tier-2500',
      'print-shop-prod-tier-25000',
      'print-shop-prod-tier-2500',
      'print-shop-prod-tier-25000',
    ]);
    expect(replaced.sort()).toEqual(before.usage_keys.map((key) => key.id).sort());
    for (const key of usageKeys) expect(gateway.keys.get(key.id)!.plans).toEqual([key.usage_plan]);

    let waited = 0;
    await usageKeyManager('prod', { client: gateway.client, sleep: async (ms) => void (waited = ms) }).retire(replaced);
    expect(waited).toBe(AUTHORIZER_CACHE_MS);
    for (const id of replaced) expect(gateway.keys.has(id)).toBe(false);
    // Deleting a key that is already gone is fine (a second run).
    await usageKeyManager('prod', { client: gateway.client, sleep: async () => undefined }).retire(replaced);
  });

  it('changes nothing when every key already sits in its tier', async () => {
    const gateway = fakeApiGateway('dev');
    const manager = usageKeyManager('dev', { client: gateway.client });
    const synced = account({ usage_keys: (await manager.sync(account(), plans.professional)).usageKeys });
    gateway.calls.length = 0;
    const again = await manager.sync(synced, plans.professional);
    expect(again).toEqual({ usageKeys: synced.usage_keys, replaced: [] });
    expect(gateway.calls.filter((call) => call !== 'GetUsagePlans')).toEqual([]);
  });

  it('supersedes the account’s first single key', async () => {
    const gateway = fakeApiGateway('dev');
    const { replaced } = await usageKeyManager('dev', { client: gateway.client }).sync(
      account({ usage_key_id: 'legacy', usage_key: 'v' }),
      plans.starter,
    );
    expect(replaced).toEqual(['legacy']);
  });

  it('puts figures above the last tier in the unthrottled usage plan', async () => {
    const gateway = fakeApiGateway('dev');
    const { usageKeys } = await usageKeyManager('dev', { client: gateway.client }).sync(account(), 1_000_000);
    expect(new Set(usageKeys.map((key) => key.usage_plan))).toEqual(new Set(['print-shop-dev-unthrottled']));
  });
});

describe('the usage key the authorizer returns', () => {
  it('is the one of the caller’s mode and key kind, else the account’s first single key, else none', async () => {
    const gateway = fakeApiGateway('dev');
    const usageKeys = (await usageKeyManager('dev', { client: gateway.client }).sync(account(), plans.starter)).usageKeys;
    const synced = account({ usage_keys: usageKeys });
    for (const key of usageKeys) expect(usageKeyOf(synced, key.mode, key.kind)).toBe(key.value);
    expect(usageKeyOf(account({ usage_key: 'legacy-value' }), 'live', 'publishable')).toBe('legacy-value');
    expect(usageKeyOf(account(), 'live', 'secret')).toBeUndefined();
  });
});

/**
 * Deployed stages only: every account has four API Gateway API keys (usage identifier keys), one
 * per mode and key kind, each registered in the usage plan of its tier (shared/accounts/plans.ts:
 * the tier holds the account's per-minute figure for secret keys, ten times it for publishable
 * keys). The authorizer returns the key of the caller's mode and kind, and API Gateway applies
 * that usage plan's throttle to it — so test traffic and storefronts never spend the secret live
 * keys' backstop. Locally there is no API Gateway, so none of this runs.
 *
 * A key whose tier changes is replaced by a fresh key in the new tier's usage plan (an API key
 * can sit in only one usage plan per API stage, and moving it would leave it in none for a
 * moment); the old key is deleted once the authorizer's 60 s cache can no longer return it.
 */
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  GetUsagePlansCommand,
} from '@aws-sdk/client-api-gateway';
import { randomToken } from '#shared/ids';
import { usageKeyTiers, usagePlanName } from '#shared/accounts/plans';
import type { AccountRecord as Account } from '#shared/accounts/service';

export type UsageKey = Account['usage_keys'][number];

/** The part of the API Gateway client used here (tests pass a fake). */
export interface ApiGatewayPort {
  send(command: CreateApiKeyCommand | CreateUsagePlanKeyCommand | DeleteApiKeyCommand | GetUsagePlansCommand): Promise<unknown>;
}

/** The authorizer caches a principal (with its usage key) for 60 s: an old key stays in use that long. */
export const AUTHORIZER_CACHE_MS = 61_000;

export interface UsageKeyChanges {
  /** The account's keys after the change, to store on the account. */
  usageKeys: UsageKey[];
  /** API Gateway key ids no longer referenced (replaced keys, the account's first single key): delete with `retire`. */
  replaced: string[];
}

export interface UsageKeyManager {
  /** Creates the missing keys and replaces those whose tier changed, for the account's per-minute figure. */
  sync(account: Account, perMinute: number): Promise<UsageKeyChanges>;
  /** Waits out the authorizer cache, then deletes the keys (a key already gone is fine). */
  retire(keyIds: string[]): Promise<void>;
}

export function usageKeyManager(
  stage: string,
  options: { client?: ApiGatewayPort; sleep?: (ms: number) => Promise<void> } = {},
): UsageKeyManager {
  const client = options.client ?? new APIGatewayClient({});
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let planIds: Promise<Map<string, string>> | undefined;

  /** Usage plan name → id, read once. */
  const usagePlanIds = () =>
    (planIds ??= (async () => {
      const ids = new Map<string, string>();
      let position: string | undefined;
      do {
        const page = (await client.send(new GetUsagePlansCommand({ position, limit: 500 }))) as {
          items?: { id?: string; name?: string }[];
          position?: string;
        };
        for (const item of page.items ?? []) if (item.id && item.name) ids.set(item.name, item.id);
        position = page.position;
      } while (position);
      return ids;
    })());

  async function usagePlanId(name: string): Promise<string> {
    const id = (await usagePlanIds()).get(name);
    if (!id) throw new Error(`Usage plan ${name} not found: is stage ${stage} deployed with this version?`);
    return id;
  }

  async function createKey(account: Account, slot: { mode: UsageKey['mode']; kind: UsageKey['kind'] }, plan: string): Promise<UsageKey> {
    const value = randomToken(40);
    const usagePlanIdValue = await usagePlanId(plan);
    const created = (await client.send(
      new CreateApiKeyCommand({
        name: `${stage}-${account.id}-${slot.mode}-${slot.kind}-${randomToken(6)}`,
        value,
        enabled: true,
        description: `Usage key of ${account.id}, ${slot.mode} mode, ${slot.kind} keys`,
      }),
    )) as { id?: string };
    if (!created.id) throw new Error('API Gateway created an API key without an id');
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: usagePlanIdValue, keyId: created.id, keyType: 'API_KEY' }));
    return { mode: slot.mode, kind: slot.kind, id: created.id, value, usage_plan: plan };
  }

  return {
    async sync(account, perMinute) {
      const usageKeys: UsageKey[] = [];
      const replaced: string[] = [];
      for (const { slot, tier } of usageKeyTiers(perMinute)) {
        const plan = usagePlanName(stage, tier);
        const current = account.usage_keys.find((key) => key.mode === slot.mode && key.kind === slot.kind);
        if (current?.usage_plan === plan) {
          usageKeys.push(current);
          continue;
        }
        usageKeys.push(await createKey(account, slot, plan));
        if (current) replaced.push(current.id);
      }
      // The account's first single key is superseded by the four.
      if (account.usage_key_id) replaced.push(account.usage_key_id);
      return { usageKeys, replaced };
    },

    async retire(keyIds) {
      if (keyIds.length === 0) return;
      await sleep(AUTHORIZER_CACHE_MS);
      for (const apiKey of keyIds) {
        try {
          await client.send(new DeleteApiKeyCommand({ apiKey }));
        } catch (error) {
          if ((error as { name?: string }).name !== 'NotFoundException') throw error;
        }
      }
    },
  };
}

/**
 * Accounts and API keys (platform items, not tenant data). A key is stored twice in one
 * transaction: a lookup item addressed by the key's SHA-256 (what the authorizer reads) and a
 * record under its account (for listing and revocation). The key itself is never stored.
 */
import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { KeyKind, Mode } from '#shared/auth/keys';
import { dynamo } from '#shared/clients/dynamodb';
import { platformKeys } from '#shared/db/keys';
import { isConditionFailure, tableName, transactWrite } from '#shared/db/table';
import { buildUpdate } from '#shared/db/update-expression';
import { NotFoundError } from '#shared/errors';
import type { Plan } from './plans';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  /** Custom requests-per-minute figure; overrides the plan's. */
  rate_limit_per_minute?: number;
  /** Optional hourly cap on top of the per-minute limit (e.g. the beta's 1000/hour). */
  rate_limit_per_hour?: number;
  /** API Gateway usage identifier key (deployed stages only): puts the account in its plan's usage plan. */
  usage_key_id?: string;
  usage_key?: string;
  currency: string;
  /** Percent, e.g. 19 for 19 %. */
  tax_rate: number;
  /** Image for legacy products that have none (a built-in placeholder when unset). */
  placeholder_image_url?: string;
  allowed_ips: string[];
  created_at: string;
  updated_at: string;
}

export interface ApiKeyRecord {
  key_id: string;
  account_id: string;
  mode: Mode;
  kind: KeyKind;
  scopes: string[];
  prefix: string;
  created_at: string;
  revoked_at?: string;
  /** Further restriction of the account's allowlist for this key only. */
  allowed_ips?: string[];
}

const accountFields = (item: Record<string, unknown>): Account => ({
  id: String(item.id),
  name: String(item.name),
  plan: item.plan as Plan,
  ...(item.rate_limit_per_minute ? { rate_limit_per_minute: Number(item.rate_limit_per_minute) } : {}),
  ...(item.rate_limit_per_hour ? { rate_limit_per_hour: Number(item.rate_limit_per_hour) } : {}),
  ...(item.usage_key_id ? { usage_key_id: String(item.usage_key_id), usage_key: String(item.usage_key) } : {}),
  currency: String(item.currency),
  tax_rate: Number(item.tax_rate),
  ...(item.placeholder_image_url ? { placeholder_image_url: String(item.placeholder_image_url) } : {}),
  allowed_ips: (item.allowed_ips as string[] | undefined) ?? [],
  created_at: String(item.created_at),
  updated_at: String(item.updated_at),
});

const keyFields = (item: Record<string, unknown>): ApiKeyRecord => ({
  key_id: String(item.key_id),
  account_id: String(item.account_id),
  mode: item.mode as Mode,
  kind: item.kind as KeyKind,
  scopes: (item.scopes as string[]) ?? [],
  prefix: String(item.prefix),
  created_at: String(item.created_at),
  ...(item.revoked_at ? { revoked_at: String(item.revoked_at) } : {}),
  ...(Array.isArray(item.allowed_ips) && item.allowed_ips.length ? { allowed_ips: item.allowed_ips as string[] } : {}),
});

export async function putAccount(account: Account): Promise<void> {
  await transactWrite([
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...platformKeys.account(account.id),
          entity: 'ACCOUNT',
          ...account,
          gsi1pk: platformKeys.accountsCollection,
          gsi1sk: `${account.created_at}#${account.id}`,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
}

export async function getAccount(accountId: string): Promise<Account | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: platformKeys.account(accountId) }));
  return result.Item ? accountFields(result.Item) : undefined;
}

export async function listAccounts(): Promise<Account[]> {
  const accounts: Account[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': platformKeys.accountsCollection },
        ScanIndexForward: false,
        ExclusiveStartKey: startKey,
      }),
    );
    const keys = (page.Items ?? []).map((item) => ({ pk: item.pk, sk: item.sk }));
    if (keys.length) {
      const got = await dynamo().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys } } }));
      accounts.push(...(got.Responses?.[tableName()] ?? []).map(accountFields));
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return accounts.sort((a, b) => b.created_at.localeCompare(a.created_at));
}

type AccountChanges = Partial<Pick<Account, 'plan' | 'rate_limit_per_minute' | 'rate_limit_per_hour' | 'allowed_ips' | 'name' | 'usage_key_id' | 'usage_key' | 'placeholder_image_url'>>;

export async function updateAccount(accountId: string, changes: AccountChanges): Promise<Account> {
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: platformKeys.account(accountId),
        ...buildUpdate({ ...changes, updated_at: new Date().toISOString() }),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return accountFields(result.Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('account', accountId);
    throw error;
  }
}

export async function putApiKey(record: ApiKeyRecord, hash: string): Promise<void> {
  await transactWrite([
    {
      Put: {
        TableName: tableName(),
        Item: { ...platformKeys.apiKeyByHash(hash), entity: 'APIKEY', ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...platformKeys.accountApiKey(record.account_id, record.key_id), entity: 'APIKEY_REF', ...record, hash },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
}

/** The authorizer's read: the key record, then its account (plan, allowed IPs may change at any time). */
export async function findKeyWithAccount(hash: string): Promise<{ key: ApiKeyRecord; account: Account } | undefined> {
  const lookup = await dynamo().send(new GetCommand({ TableName: tableName(), Key: platformKeys.apiKeyByHash(hash) }));
  if (!lookup.Item) return undefined;
  const key = keyFields(lookup.Item);
  const account = await getAccount(key.account_id);
  return account ? { key, account } : undefined;
}

export async function listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': platformKeys.account(accountId).pk, ':prefix': platformKeys.accountApiKeyPrefix },
    }),
  );
  return (result.Items ?? []).map(keyFields);
}

/** Sets a key's own allowlist on both of its items in one transaction (empty list: no restriction). */
export async function setKeyAllowedIps(accountId: string, keyId: string, cidrs: string[]): Promise<ApiKeyRecord> {
  const ref = await dynamo().send(new GetCommand({ TableName: tableName(), Key: platformKeys.accountApiKey(accountId, keyId) }));
  if (!ref.Item) throw new NotFoundError('API key', keyId);
  const update = (key: { pk: string; sk: string }) => ({
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET allowed_ips = :cidrs',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':cidrs': cidrs },
    },
  });
  await transactWrite([update(platformKeys.accountApiKey(accountId, keyId)), update(platformKeys.apiKeyByHash(String(ref.Item.hash)))]);
  return keyFields({ ...ref.Item, allowed_ips: cidrs });
}

/** Marks both items revoked in one transaction; the authorizer refuses the key from then on. */
export async function revokeApiKey(accountId: string, keyId: string): Promise<ApiKeyRecord> {
  const ref = await dynamo().send(new GetCommand({ TableName: tableName(), Key: platformKeys.accountApiKey(accountId, keyId) }));
  if (!ref.Item) throw new NotFoundError('API key', keyId);
  const now = new Date().toISOString();
  const update = (key: { pk: string; sk: string }) => ({
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now },
    },
  });
  await transactWrite([update(platformKeys.accountApiKey(accountId, keyId)), update(platformKeys.apiKeyByHash(String(ref.Item.hash)))]);
  return { ...keyFields(ref.Item), revoked_at: String(ref.Item.revoked_at ?? now) };
}


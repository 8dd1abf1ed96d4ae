/**
 * Accounts and API keys in the single table (stored.ts has the items). The account record and API
 * keys are platform items: only the accounts CLI and the local runner write them, route functions
 * and the authorizer read them. The account's settings (name, company) are its own item in its
 * tenant space, the one part of an account a route writes (`PUT /v1/account`).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import { batchGet, keyId } from '#shared/db/batch';
import { accountSettingsKey, platformKeys } from '#shared/db/keys';
import { queryAll } from '#shared/db/query';
import { isConditionFailure, tableName } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { buildUpdate } from '#shared/db/update-expression';
import { NotFoundError, VersionConflict } from '#shared/errors';
import {
  accountFromItems,
  accountPuts,
  accountRecordFromItem,
  apiKeyFromItem,
  apiKeyPuts,
  settingsPut,
  type Account,
  type AccountRecord,
  type AccountSettings,
  type ApiKeyRecord,
} from './stored';

export type { Account, AccountRecord, ApiKeyRecord };

export async function putAccount(record: AccountRecord, settings: AccountSettings): Promise<void> {
  await transactWrite(accountPuts(record, settings));
}

/** The account's record alone (one GetItem): what the authorizer and the limits need. */
export async function getAccountRecord(accountId: string, consistent = false): Promise<AccountRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: platformKeys.account(accountId), ConsistentRead: consistent }),
  );
  return result.Item ? accountRecordFromItem(result.Item) : undefined;
}

/** The accounts' records and settings, with one BatchGetItem per 50 accounts. */
async function readAccounts(accountIds: readonly string[], consistent = false): Promise<Account[]> {
  const found = await batchGet(
    accountIds.flatMap((id) => [platformKeys.account(id), accountSettingsKey(id)]),
    { consistent },
  );
  return accountIds.flatMap((id) => {
    const record = found.get(keyId(platformKeys.account(id)));
    return record ? [accountFromItems(record, found.get(keyId(accountSettingsKey(id))))] : [];
  });
}

/** The whole account, record and settings (one BatchGetItem). */
export async function getAccount(accountId: string, consistent = false): Promise<Account | undefined> {
  return (await readAccounts([accountId], consistent))[0];
}

/** Every account, newest first (the accounts CLI; never a request path). */
export async function listAccounts(): Promise<Account[]> {
  const entries = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': platformKeys.accountsCollection },
    ScanIndexForward: false,
  });
  return readAccounts(entries.map((entry) => String(entry.pk).slice('ACCOUNT#'.length)));
}

type AccountChanges = Partial<
  Pick<
    AccountRecord,
    | 'plan'
    | 'rate_limit_per_minute'
    | 'rate_limit_per_hour'
    | 'allowed_ips'
    | 'usage_key_id'
    | 'usage_key'
    | 'usage_keys'
    | 'placeholder_image_url'
  >
>;

/** The operator's changes to an account's record (the accounts CLI). */
export async function updateAccount(accountId: string, changes: AccountChanges): Promise<AccountRecord> {
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
    return accountRecordFromItem(result.Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('account', accountId);
    throw error;
  }
}

/**
 * Writes the account's name and company as changed from `read`, on condition that nobody changed
 * the settings since (their `updated_at`); otherwise a VersionConflict — the caller reads again.
 */
export async function replaceAccountSettings(
  read: Account,
  changes: Partial<Pick<Account, 'name' | 'company' | 'tax_rates' | 'shipping_tax_category'>>,
): Promise<Account> {
  const settings: AccountSettings = {
    name: changes.name ?? read.name,
    company: changes.company === undefined ? read.company : changes.company,
    tax_rates: changes.tax_rates === undefined ? read.tax_rates : changes.tax_rates,
    shipping_tax_category: changes.shipping_tax_category ?? read.shipping_tax_category,
    updated_at: new Date().toISOString(),
  };
  try {
    await dynamo().send(new PutCommand(settingsPut(read.id, settings, read.settings_updated_at).Put!));
  } catch (error) {
    if (isConditionFailure(error)) throw new VersionConflict('account');
    throw error;
  }
  return {
    ...read,
    name: settings.name,
    company: settings.company,
    tax_rates: settings.tax_rates,
    shipping_tax_category: settings.shipping_tax_category,
    settings_updated_at: settings.updated_at,
  };
}

export async function putApiKey(record: ApiKeyRecord, hash: string): Promise<void> {
  await transactWrite(apiKeyPuts(record, hash));
}

/** The authorizer's read: the key record, then its account (plan, allowed IPs may change at any time). */
export async function findKeyWithAccount(hash: string): Promise<{ key: ApiKeyRecord; account: AccountRecord } | undefined> {
  const lookup = await dynamo().send(new GetCommand({ TableName: tableName(), Key: platformKeys.apiKeyByHash(hash) }));
  if (!lookup.Item) return undefined;
  const key = apiKeyFromItem(lookup.Item);
  const account = await getAccountRecord(key.account_id);
  return account ? { key, account } : undefined;
}

export async function listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': platformKeys.account(accountId).pk, ':prefix': platformKeys.accountApiKeyPrefix },
  });
  return items.map(apiKeyFromItem);
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
  return apiKeyFromItem({ ...ref.Item, allowed_ips: cidrs });
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
  return { ...apiKeyFromItem(ref.Item), revoked_at: String(ref.Item.revoked_at ?? now) };
}

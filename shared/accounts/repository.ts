/**
 * Accounts and API keys in the single table (stored.ts has the items). Platform items, not
 * tenant data: only the accounts CLI, the local runner and the authorizer write or read them.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import { getMany } from '#shared/db/collections';
import { platformKeys, type ItemKey } from '#shared/db/keys';
import { queryAll } from '#shared/db/query';
import { isConditionFailure, tableName } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { buildUpdate } from '#shared/db/update-expression';
import { ConflictError, NotFoundError } from '#shared/errors';
import { accountFromItem, accountPut, apiKeyFromItem, apiKeyPuts, type Account, type ApiKeyRecord } from './stored';

export type { Account, ApiKeyRecord };

export async function putAccount(account: Account): Promise<void> {
  await transactWrite([accountPut(account)]);
}

export async function getAccount(accountId: string, consistent = false): Promise<Account | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: platformKeys.account(accountId), ConsistentRead: consistent }),
  );
  return result.Item ? accountFromItem(result.Item) : undefined;
}

/** Every account, newest first (the accounts CLI; never a request path). */
export async function listAccounts(): Promise<Account[]> {
  const entries = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': platformKeys.accountsCollection },
    ScanIndexForward: false,
  });
  const items = await getMany(entries.map((entry): ItemKey => ({ pk: String(entry.pk), sk: String(entry.sk) })));
  return items.map(accountFromItem);
}

type AccountChanges = Partial<
  Pick<
    Account,
    | 'plan'
    | 'rate_limit_per_minute'
    | 'rate_limit_per_hour'
    | 'allowed_ips'
    | 'name'
    | 'usage_key_id'
    | 'usage_key'
    | 'usage_keys'
    | 'placeholder_image_url'
  >
>;

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
    return accountFromItem(result.Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('account', accountId);
    throw error;
  }
}

/**
 * Writes the account's name and company as changed from `read`, on condition that nobody changed
 * the account since (its `updated_at`); otherwise 409 — the caller reads again.
 */
export async function replaceAccountSettings(read: Account, changes: Partial<Pick<Account, 'name' | 'company'>>): Promise<Account> {
  try {
    const result = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: platformKeys.account(read.id),
        ...buildUpdate({ ...changes, updated_at: new Date().toISOString() }, [], { ':read': read.updated_at }),
        ConditionExpression: 'attribute_exists(pk) AND updated_at = :read',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return accountFromItem(result.Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError('The account was changed by another request at the same time; try again');
    throw error;
  }
}

export async function putApiKey(record: ApiKeyRecord, hash: string): Promise<void> {
  await transactWrite(apiKeyPuts(record, hash));
}

/** The authorizer's read: the key record, then its account (plan, allowed IPs may change at any time). */
export async function findKeyWithAccount(hash: string): Promise<{ key: ApiKeyRecord; account: Account } | undefined> {
  const lookup = await dynamo().send(new GetCommand({ TableName: tableName(), Key: platformKeys.apiKeyByHash(hash) }));
  if (!lookup.Item) return undefined;
  const key = apiKeyFromItem(lookup.Item);
  const account = await getAccount(key.account_id);
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

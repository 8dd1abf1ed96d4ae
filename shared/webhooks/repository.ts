/**
 * Webhook registrations in the single table (stored.ts has the item). A counter item, changed
 * in the same transaction as creates and deletes and guarded by a condition, caps them at
 * MAX_WEBHOOKS_PER_TENANT. Updates are conditional on `version`. See docs/webhooks.md.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { adjustTotal } from '#shared/db/totals';
import { tenantKeys, webhookKeys } from '#shared/db/keys';
import { queryAll } from '#shared/db/query';
import { isConditionFailure, tableName, type TransactItem } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { versionedDelete, versionedUpdate } from '#shared/db/update-expression';
import { ConflictError, NotFoundError, VersionConflict } from '#shared/errors';
import { WEBHOOKS, storedWebhook, webhookFromItem, webhookPut, type WebhookRecord } from './stored';

export const MAX_WEBHOOKS_PER_TENANT = 20;

const webhookMoved = () => new VersionConflict('webhook');

export const tooManyWebhooks = () =>
  new ConflictError(`An account can have at most ${MAX_WEBHOOKS_PER_TENANT} webhooks per mode`, [
    { field: 'url', message: `limit of ${MAX_WEBHOOKS_PER_TENANT} reached; delete one first` },
  ]);

export async function insertWebhook(tenant: Tenant, record: WebhookRecord): Promise<void> {
  const count: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: tenantKeys.total(tenant, WEBHOOKS),
      UpdateExpression: 'ADD #total :one',
      ConditionExpression: 'attribute_not_exists(#total) OR #total < :max',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOKS_PER_TENANT },
    },
  };
  await transactWrite([{ item: count, onConditionFailure: tooManyWebhooks }, webhookPut(tenant, record)]);
}

export async function readWebhook(tenant: Tenant, id: number): Promise<WebhookRecord | undefined> {
  // Consistent: a pause, a deletion or a new secret applies to the very next delivery.
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.webhook(tenant, id), ConsistentRead: true }),
  );
  return result.Item ? webhookFromItem(result.Item) : undefined;
}

export async function requireWebhook(tenant: Tenant, id: number): Promise<WebhookRecord> {
  const webhook = await readWebhook(tenant, id);
  if (!webhook) throw new NotFoundError('webhook', id);
  return webhook;
}

/**
 * Every registration of the tenant, oldest first: one Query over a partition of at most 20 items,
 * strongly consistent so an event written right after a registration is routed to it.
 */
export async function listWebhooks(tenant: Tenant): Promise<WebhookRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': webhookKeys.webhooksPartition(tenant), ':prefix': webhookKeys.webhookPrefix },
    ConsistentRead: true,
  });
  return items.map(webhookFromItem);
}

export async function saveWebhook(tenant: Tenant, before: WebhookRecord, after: WebhookRecord): Promise<void> {
  const update = versionedUpdate(webhookKeys.webhook(tenant, before.id), storedWebhook.attributes(after, 'update'), before.version);
  try {
    await dynamo().send(new UpdateCommand(update.Update as never));
  } catch (error) {
    if (isConditionFailure(error)) throw webhookMoved();
    throw error;
  }
}

export async function deleteWebhook(tenant: Tenant, record: WebhookRecord): Promise<void> {
  const remove = versionedDelete(webhookKeys.webhook(tenant, record.id), record.version);
  await transactWrite([{ item: remove, onConditionFailure: webhookMoved }, adjustTotal(tenant, WEBHOOKS, -1)]);
}

/** A receiver answered 410 Gone: pause the registration (bumping its version, so no update overwrites this unseen). */
export async function deactivateWebhook(tenant: Tenant, id: number, now: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookKeys.webhook(tenant, id),
        UpdateExpression: 'SET #active = :false, updated_at = :now, #version = #version + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#active': 'active', '#version': 'version' },
        ExpressionAttributeValues: { ':false': false, ':now': now, ':one': 1 },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error; // deleted meanwhile: nothing to pause
  }
}

/** A secret sealed anew: the value that was read (plaintext, or sealed under the shared context) and its sealed form. */
export interface SecretReseal {
  read: string;
  sealed: string;
}

/** What sealing writes over a registration: the secrets sealed anew, and the hint when it had none. */
export interface WebhookReseal {
  secret?: SecretReseal;
  secret_hint?: string;
  previous_secret?: SecretReseal;
}

/**
 * Replaces the registration's secrets with their sealed forms (the operator's migration,
 * seal-stored.ts), on condition that each value replaced is still the value that was read, so a
 * rotation meanwhile is never overwritten; sets `secret_hint` when given, and bumps `version` (so
 * an update that read the plaintext before cannot write it back). False when a value changed
 * meanwhile (rotated, updated or deleted). At least one of the secrets is given.
 */
export async function resealWebhookSecrets(tenant: Tenant, id: number, reseal: WebhookReseal): Promise<boolean> {
  const set = ['#version = #version + :one'];
  const conditions: string[] = [];
  const values: Record<string, unknown> = { ':one': 1 };
  if (reseal.secret) {
    set.push('secret = :sealed');
    conditions.push('secret = :plain');
    values[':sealed'] = reseal.secret.sealed;
    values[':plain'] = reseal.secret.read;
  }
  if (reseal.secret_hint !== undefined) {
    set.push('secret_hint = :hint');
    values[':hint'] = reseal.secret_hint;
  }
  if (reseal.previous_secret) {
    set.push('previous_secret = :sealedPrevious');
    conditions.push('previous_secret = :plainPrevious');
    values[':sealedPrevious'] = reseal.previous_secret.sealed;
    values[':plainPrevious'] = reseal.previous_secret.read;
  }
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookKeys.webhook(tenant, id),
        UpdateExpression: `SET ${set.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

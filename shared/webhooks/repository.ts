/**
 * Webhook registrations in the single table. All registrations of a tenant (account + mode) live
 * in one partition, so the stream router finds the subscribers of an event with one Query; a
 * counter item, changed in the same transaction as creates and deletes and guarded by a
 * condition, caps them at MAX_WEBHOOKS_PER_TENANT. Updates are conditional on `version`.
 *
 * The secret is stored as-is (it must sign later, so a hash would not do); the table is encrypted
 * at rest and no read path outside signing ever returns it. See docs/webhooks.md.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { tenantKeys } from '#shared/db/keys';
import { isConditionFailure, tableName, transactWrite } from '#shared/db/table';
import { buildUpdate } from '#shared/db/update-expression';
import { ConflictError, NotFoundError } from '#shared/errors';

export const WEBHOOKS = 'webhooks';
export const MAX_WEBHOOKS_PER_TENANT = 20;

export interface WebhookRecord {
  id: number;
  url: string;
  events: string[];
  active: boolean;
  description: string | null;
  secret: string;
  previousSecret?: string;
  previousSecretExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The registration changed between our read and our write; the service re-reads and retries. */
export class WebhookVersionConflict extends Error {}

type Item = Record<string, unknown>;

export function webhookFromItem(item: Item): WebhookRecord {
  return {
    id: Number(item.id),
    url: String(item.url),
    events: (item.events as string[] | undefined) ?? [],
    active: item.active === true,
    description: item.description === undefined || item.description === null ? null : String(item.description),
    secret: String(item.secret),
    ...(item.previous_secret ? { previousSecret: String(item.previous_secret), previousSecretExpiresAt: String(item.previous_secret_expires_at) } : {}),
    createdAt: String(item.created_at),
    updatedAt: String(item.updated_at),
    version: Number(item.version),
  };
}

function attributes(record: WebhookRecord): Item {
  return {
    url: record.url,
    events: record.events,
    active: record.active,
    description: record.description,
    secret: record.secret,
    previous_secret: record.previousSecret,
    previous_secret_expires_at: record.previousSecretExpiresAt,
    updated_at: record.updatedAt,
  };
}

export const tooManyWebhooks = () =>
  new ConflictError(`An account can have at most ${MAX_WEBHOOKS_PER_TENANT} webhooks per mode`, [
    { field: 'url', message: `limit of ${MAX_WEBHOOKS_PER_TENANT} reached; delete one first` },
  ]);

export async function insertWebhook(tenant: Tenant, record: WebhookRecord): Promise<void> {
  await transactWrite(
    [
      {
        Update: {
          TableName: tableName(),
          Key: tenantKeys.total(tenant, WEBHOOKS),
          UpdateExpression: 'ADD #total :one',
          ConditionExpression: 'attribute_not_exists(#total) OR #total < :max',
          ExpressionAttributeNames: { '#total': 'total' },
          ExpressionAttributeValues: { ':one': 1, ':max': MAX_WEBHOOKS_PER_TENANT },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...tenantKeys.webhook(tenant, record.id),
            entity: 'WEBHOOK',
            id: record.id,
            created_at: record.createdAt,
            version: record.version,
            ...attributes(record),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    (index) => (index === 0 ? tooManyWebhooks() : undefined),
  );
}

export async function readWebhook(tenant: Tenant, id: number): Promise<WebhookRecord | undefined> {
  // Consistent: a pause, a deletion or a new secret applies to the very next delivery.
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.webhook(tenant, id), ConsistentRead: true }));
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
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantKeys.webhooksPartition(tenant), ':prefix': tenantKeys.webhookPrefix },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items.map(webhookFromItem);
}

export async function saveWebhook(tenant: Tenant, before: WebhookRecord, after: WebhookRecord): Promise<void> {
  const parts = buildUpdate(attributes(after), ['#version = :next'], { ':expected': before.version, ':next': before.version + 1 });
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tenantKeys.webhook(tenant, before.id),
        ...parts,
        ExpressionAttributeNames: { ...parts.ExpressionAttributeNames, '#version': 'version' },
        ConditionExpression: '#version = :expected',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new WebhookVersionConflict();
    throw error;
  }
}

export async function deleteWebhook(tenant: Tenant, record: WebhookRecord): Promise<void> {
  await transactWrite(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: tenantKeys.webhook(tenant, record.id),
          ConditionExpression: '#version = :expected',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':expected': record.version },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: tenantKeys.total(tenant, WEBHOOKS),
          UpdateExpression: 'ADD #total :minus',
          ExpressionAttributeNames: { '#total': 'total' },
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ],
    (index) => (index === 0 ? new WebhookVersionConflict() : undefined),
  );
}

/** A receiver answered 410 Gone: pause the registration (bumping its version, so no update overwrites this unseen). */
export async function deactivateWebhook(tenant: Tenant, id: number, now: string): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: tenantKeys.webhook(tenant, id),
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

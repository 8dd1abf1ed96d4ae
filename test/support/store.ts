/** Direct reads of stored state, so tests can assert on what was (and was not) written. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod';
import type { Tenant } from '#shared/auth/principal';
import type { EventDefinition } from '#shared/events/catalogue';
import type { DeclaredEvent } from '#shared/openapi/events';
import { dynamo } from '#shared/clients/dynamodb';
import { getMany } from '#shared/db/collections';
import { type ItemKey, tenantKeys, webhookKeys } from '#shared/db/keys';
import { queryAll } from '#shared/db/query';
import { tableName } from '#shared/db/table';

/** An outbox event as the table holds it: its kind and the payload its declaration gives that kind. */
export type StoredEventItem = DeclaredEvent extends infer Definition
  ? Definition extends EventDefinition<infer Kind, infer Payload>
    ? { event_id: string; kind: Kind; data: z.output<Payload>; created_at: string; test?: boolean; [attribute: string]: unknown }
    : never
  : never;

/** The events of one kind among `events`, typed by that kind's declaration. */
export const ofKind = <Kind extends StoredEventItem['kind']>(events: StoredEventItem[], kind: Kind) =>
  events.filter((event): event is Extract<StoredEventItem, { kind: Kind }> => event.kind === kind);

/** The id of the resource an event carries under `type` (`order`, `shipment` …), if it carries one. */
export const carried = (event: StoredEventItem, type: string): { id?: number; order_id?: number } | undefined =>
  (event.data as Record<string, { id?: number; order_id?: number } | undefined>)[type];

/** All stored events of a tenant, every page (use with a tenant of the test's own). */
export async function storedEvents(tenant: Tenant): Promise<StoredEventItem[]> {
  const entries = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': tenantKeys.eventsCollection(tenant) },
  });
  const items = await getMany(entries.map((entry): ItemKey => ({ pk: String(entry.pk), sk: String(entry.sk) })));
  return items as StoredEventItem[];
}

export async function storedTotal(tenant: Tenant, collection: string): Promise<number> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.total(tenant, collection) }));
  return Number(result.Item?.total ?? 0);
}

export async function storedEmailOwner(tenant: Tenant, email: string): Promise<number | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.customerEmail(tenant, email) }));
  return result.Item ? Number(result.Item.customer_id) : undefined;
}

export async function storedCustomer(tenant: Tenant, id: number) {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: tenantKeys.customer(tenant, id) }));
  return result.Item;
}

export async function storedDelivery(tenant: Tenant, deliveryId: string) {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(tenant, deliveryId) }));
  return result.Item;
}

/** Runs `work` and counts the DynamoDB commands it sent through the shared client, by name (nothing else may use the client meanwhile). */
export async function withCallCount<T>(work: () => Promise<T>): Promise<{ result: T; calls: Record<string, number>; commands: string[] }> {
  const commands: string[] = [];
  const client = dynamo();
  const name = `countCommands-${Math.random()}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(String(context.commandName).replace(/Command$/, ''));
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    const result = await work();
    const calls: Record<string, number> = {};
    for (const command of commands) calls[command] = (calls[command] ?? 0) + 1;
    return { result, calls, commands };
  } finally {
    client.middlewareStack.remove(name);
  }
}

/**
 * The delivery history of one registration, newest first, optionally by status and event kind.
 *
 * Unfiltered pages come from gsi1, status filters from gsi2 (whose partition moves with the
 * status). Both are KEYS_ONLY and their sort key is `<delivery id>#<kind>`: delivery ids sort by
 * event time and the kind rides along, so the event filter and the total are worked out on the
 * small key records alone, and only the page itself is fetched (one BatchGet). No counter is kept
 * for the total: history expires by TTL, which a counter would not notice.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { getMany, type PageRequest } from '#shared/db/collections';
import { tenantKeys, type ItemKey } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { deliveryFromItem, type DeliveryRecord } from './deliveries';
import type { DeliveryStatus } from './schema';

export interface HistoryFilter {
  status?: DeliveryStatus;
  kind?: string;
}

export async function listDeliveries(
  tenant: Tenant,
  webhookId: number,
  filter: HistoryFilter,
  { page, perPage }: PageRequest,
): Promise<{ items: DeliveryRecord[]; total: number }> {
  const index = filter.status ? 'gsi2' : 'gsi1';
  const partition = filter.status ? tenantKeys.webhookDeliveriesByStatus(tenant, webhookId, filter.status) : tenantKeys.webhookDeliveries(tenant, webhookId);
  const suffix = filter.kind === undefined ? undefined : `#${filter.kind}`;
  const offset = (page - 1) * perPage;
  const pageKeys: ItemKey[] = [];
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': `${index}pk` },
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const key of result.Items ?? []) {
      if (suffix !== undefined && !String(key[`${index}sk`]).endsWith(suffix)) continue;
      if (total >= offset && total < offset + perPage) pageKeys.push({ pk: String(key.pk), sk: String(key.sk) });
      total++;
    }
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  const items = await getMany(pageKeys);
  // An item can change status between the index read and the fetch; the page shows it as it is now.
  return { items: items.map(deliveryFromItem), total };
}

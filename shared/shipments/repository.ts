/**
 * Shipments in the single table (keys and access patterns: docs/data-model.md). Reads and lists
 * here; every write is one TransactWriteItems assembled by the service from the item builders of
 * stored.ts (and, for an order's milestones, orders' own builders).
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { transactWrite } from '#shared/db/transactions';
import { batchGet, keyId } from '#shared/db/batch';
import { countCollectionUpTo, readTotal, readWindow, type CollectionQuery, type PageRequest, type Total } from '#shared/db/collections';
import { createdSortKey, cursorKeys, shipmentKeys } from '#shared/db/keys';
import { isConditionFailure, tableName, type TransactItem, type TransactionPart } from '#shared/db/table';
import { NotFoundError } from '#shared/errors';
import { orderFromItem, type OrderRecord } from '#shared/orders/stored';
import { orderKey } from '#shared/orders/transitions';
import type { CarrierName, ConfigurableCarrier } from './carriers/carrier';
import type { ShipmentStatus } from './status';
import {
  SHIPMENTS,
  carrierSettingsFromItem,
  orderShippingFromItem,
  shipmentFromItem,
  shipmentStatusCounter,
  storedCarrierSettings,
  type CarrierSettingsRecord,
  type OrderShippingRecord,
  type ShipmentRecord,
  unsettledShipmentUpdate,
} from './stored';

export async function readShipment(tenant: Tenant, id: number, consistent = false): Promise<ShipmentRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: shipmentKeys.shipment(tenant, id), ConsistentRead: consistent }),
  );
  return result.Item ? shipmentFromItem(result.Item) : undefined;
}

/** A shipment with its label recorded (one still being created is not there yet: 404). */
export async function requireShipment(tenant: Tenant, id: number, consistent = false): Promise<ShipmentRecord> {
  const shipment = await readShipment(tenant, id, consistent);
  if (!shipment || shipment.phase !== 'recorded') throw new NotFoundError('shipment', id);
  return shipment;
}

export async function readOrderShipping(tenant: Tenant, orderId: number, consistent = false): Promise<OrderShippingRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: shipmentKeys.orderShipping(tenant, orderId), ConsistentRead: consistent }),
  );
  return result.Item ? orderShippingFromItem(result.Item) : undefined;
}

/** The order and its shipping summary, strongly consistent, in one BatchGetItem (both in the order's partition). */
export async function readOrderWithShipping(
  tenant: Tenant,
  orderId: number,
): Promise<{ order: OrderRecord | undefined; shipping: OrderShippingRecord | undefined }> {
  const orderItemKey = orderKey(tenant, orderId);
  const shippingKey = shipmentKeys.orderShipping(tenant, orderId);
  const items = await batchGet([orderItemKey, shippingKey], { consistent: true });
  const order = items.get(keyId(orderItemKey));
  const shipping = items.get(keyId(shippingKey));
  return { order: order ? orderFromItem(order) : undefined, shipping: shipping ? orderShippingFromItem(shipping) : undefined };
}

/**
 * Marks a `creating` shipment unsettled: its creator gave up not knowing whether the carrier made the
 * label. False when it changed meanwhile (recorded, removed, or marked by another request).
 */
export async function markCreationUnsettled(tenant: Tenant, shipment: ShipmentRecord, at: string): Promise<boolean> {
  try {
    await dynamo().send(new UpdateCommand(unsettledShipmentUpdate(tenant, shipment, at).Update as never));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The shipment a carrier's parcel id belongs to, if any. */
export async function shipmentOfParcel(tenant: Tenant, carrier: CarrierName, parcelId: string): Promise<number | undefined> {
  return (await parcelOwner(tenant, carrier, parcelId))?.id;
}

/** The shipment a carrier's parcel belongs to, and whether it is the shipment's own parcel or its return's. */
export async function parcelOwner(
  tenant: Tenant,
  carrier: CarrierName,
  parcelId: string,
): Promise<{ id: number; role: 'shipment' | 'return' } | undefined> {
  const result = await dynamo().send(new GetCommand({ TableName: tableName(), Key: shipmentKeys.parcel(tenant, carrier, parcelId) }));
  if (!result.Item) return undefined;
  return { id: Number(result.Item.shipment_id), role: result.Item.role === 'return' ? 'return' : 'shipment' };
}

/** Recorded shipments by id (an order's), strongly consistent. */
export async function readShipments(tenant: Tenant, ids: readonly number[]): Promise<ShipmentRecord[]> {
  if (ids.length === 0) return [];
  const items = await batchGet(
    ids.map((id) => shipmentKeys.shipment(tenant, id)),
    { consistent: true },
  );
  return [...items.values()].map(shipmentFromItem).filter((shipment) => shipment.phase === 'recorded');
}

// ---- Carrier settings ---------------------------------------------------------------------------

export async function readCarrierSettings(tenant: Tenant, carrier: ConfigurableCarrier): Promise<CarrierSettingsRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: shipmentKeys.carrierSettings(tenant, carrier), ConsistentRead: true }),
  );
  return result.Item ? carrierSettingsFromItem(result.Item) : undefined;
}

export async function listCarrierSettings(tenant: Tenant): Promise<CarrierSettingsRecord[]> {
  const result = await dynamo().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': shipmentKeys.carriersPartition(tenant) },
    }),
  );
  return (result.Items ?? []).map(carrierSettingsFromItem);
}

/** Writes the settings whole (the secret sealed by the caller); a concurrent write of the same carrier: the last one stays. */
export async function putCarrierSettings(tenant: Tenant, settings: CarrierSettingsRecord): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...shipmentKeys.carrierSettings(tenant, settings.carrier),
        entity: 'CARRIER_SETTINGS',
        ...storedCarrierSettings.attributes(settings, 'put'),
      },
    }),
  );
}

/**
 * Replaces the settings' sealed secrets (the migration, seal-stored.ts), on condition that the
 * settings are still the version that was read; bumps it. False when they changed meanwhile.
 */
export async function resealCarrierSettings(
  tenant: Tenant,
  settings: CarrierSettingsRecord,
  sealed: { secret_key: string; callback_secret: string },
): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: shipmentKeys.carrierSettings(tenant, settings.carrier),
        UpdateExpression: 'SET secret_key = :secret, callback_secret = :callback, #version = :next',
        ConditionExpression: '#version = :read',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: {
          ':secret': sealed.secret_key,
          ':callback': sealed.callback_secret,
          ':read': settings.version,
          ':next': settings.version + 1,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// ---- Lists ------------------------------------------------------------------------------------

export interface ShipmentFilter {
  status?: ShipmentStatus;
  carrier?: CarrierName;
}

/** A list request: a page number, or the shipments after `after` (a cursor: the shipment named by `starting_after`). */
export interface ShipmentPageRequest extends PageRequest {
  after?: ShipmentRecord;
}

/**
 * Each filter combination is one index partition: all and one status through the shipment items,
 * one carrier (and status) through the carrier entries; newest first. Totals: the counters for
 * all and per status, counted on the keys-only index up to TOTAL_CAP for a carrier. A cursor
 * starts the Query after the cursor shipment's place (its creation), whatever its status now.
 */
export async function listShipments(
  tenant: Tenant,
  filter: ShipmentFilter,
  page: ShipmentPageRequest,
): Promise<{ items: ShipmentRecord[]; hasMore: boolean } & Total> {
  const { status, carrier } = filter;
  const query: CollectionQuery =
    carrier === undefined
      ? status
        ? { index: 'gsi2', partition: shipmentKeys.byStatus(tenant, status), newestFirst: true }
        : { index: 'gsi1', partition: shipmentKeys.collection(tenant), newestFirst: true }
      : status
        ? {
            index: 'gsi2',
            partition: shipmentKeys.byCarrierAndStatus(tenant, carrier, status),
            newestFirst: true,
            itemKey: shipmentKeys.shipmentOfListEntry,
          }
        : {
            index: 'gsi1',
            partition: shipmentKeys.byCarrier(tenant, carrier),
            newestFirst: true,
            itemKey: shipmentKeys.shipmentOfListEntry,
          };
  const total = async (): Promise<Total> =>
    carrier === undefined
      ? { total: await readTotal(tenant, status ? shipmentStatusCounter(status) : SHIPMENTS), capped: false }
      : countCollectionUpTo(query);
  const { after } = page;
  const startAfter =
    after &&
    cursorKeys.shipment(tenant, after.id, {
      index: query.index,
      partition: query.partition,
      sortKey: createdSortKey(after.created_at, after.id),
      entry: carrier !== undefined,
    });
  const [window, count] = await Promise.all([
    readWindow(query, { perPage: page.perPage, offset: (page.page - 1) * page.perPage, startAfter }),
    total(),
  ]);
  return { items: window.items.map(shipmentFromItem), hasMore: window.hasMore, ...count };
}

/**
 * Writes a change of shipments — a shipment, its order's shipping summary, its parcel references,
 * and what other owners join (an order's move, built by shared/orders/transitions.ts) — as one
 * transaction of parts built from stored.ts; a part's failed condition means what it says.
 */
export async function writeShipmentChange(parts: (TransactItem | TransactionPart)[]): Promise<void> {
  await transactWrite(parts);
}

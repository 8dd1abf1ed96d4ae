/**
 * How shipments are stored (docs/data-model.md, docs/shipping.md):
 *
 * - the shipment item, whose two index slots give "all shipments" (gsi1) and "of one status"
 *   (gsi2), newest first — set only once its label is recorded: a shipment being created (the
 *   carrier is being asked) is in no list;
 * - a carrier list entry in the shipment's partition for "of one carrier" (gsi1) and "of one
 *   carrier and status" (gsi2);
 * - the order's shipping summary (`<order partition>` / `SHIPPING`): every shipment of the order
 *   with its status and the line quantities it carries — what the order's milestones and "what is
 *   left to ship" are decided from, moved in every shipment change's transaction;
 * - a parcel reference per carrier parcel id (callbacks name parcels, not our ids);
 * - the tenant's carrier settings, credentials and callback secret sealed (envelope encryption, each its own kind).
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, shipmentKeys } from '#shared/db/keys';
import { adjustTotal } from '#shared/db/totals';
import { tableName, type TransactItem } from '#shared/db/table';
import { versionedUpdate } from '#shared/db/update-expression';
import { orderAddress } from '#shared/orders/stored';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import { CARRIERS, CONFIGURABLE_CARRIERS, type CarrierLabel } from './carriers/carrier';
import { SHIPMENT_STATUSES } from './status';

const trackingEvent = /* @__PURE__ */ (() =>
  c.object(
    {
      status: field(c.enumOf(SHIPMENT_STATUSES)),
      description: field(c.string),
      location: field(c.nullable(c.string)),
      occurred_at: field(c.timestamp),
      carrier_status: field(c.nullable(c.string)).describe("The carrier's own status (Sendcloud: the parcel status id)"),
    },
    { id: 'TrackingEvent' },
  ))();

/** One parcel's own tracking (a shipment of several parcels is delivered when every parcel is). */
const parcelTracking = /* @__PURE__ */ (() =>
  c.object(
    {
      parcel_id: field(c.string).describe("The carrier's parcel id"),
      tracking_number: field(c.nullable(c.string)),
      status: field(c.enumOf(SHIPMENT_STATUSES)),
      /** The time of the report the parcel's status came from. */
      status_at: field(c.string).internal(),
    },
    { id: 'ParcelTracking' },
  ))();

/** A return label of the shipment (`POST /v1/shipments/{id}/return-label`): its own parcel, tracking and status. */
const returnShipment = /* @__PURE__ */ (() =>
  c.object(
    {
      carrier_return_id: field(c.string).describe("The carrier's id of the return"),
      carrier_parcel_id: field(c.string).describe("The carrier's id of the return parcel"),
      service: field(c.string).describe("The carrier's return shipping option", 'dpd:return/return'),
      status: field(c.enumOf(SHIPMENT_STATUSES)).describe(
        'The return parcel on its way back: `delivered` once it has arrived back at the shop',
      ),
      tracking_number: field(c.nullable(c.string)),
      tracking_url: field(c.nullable(c.string)),
      events: field(c.list(trackingEvent)).describe('What the carrier reported about the return, oldest first (the newest 100)'),
      created_at: field(c.timestamp),
      arrived_at: field(c.nullable(c.timestamp)).describe('When it arrived back (shipment.returned)'),
      /** The time of the report the return's status came from. */
      status_at: field(c.string).internal(),
      /** Keys of the reports applied to the return. */
      seen: field(c.list(c.string)).internal(),
    },
    { id: 'ShipmentReturn' },
  ))();

const shippedLine = /* @__PURE__ */ (() =>
  c.object({ line_id: field(c.int).describe('The order line (its `id`)'), quantity: field(c.int) }, { id: 'ShippedLine' }))();

const parcel = /* @__PURE__ */ (() =>
  c.object(
    { weight_g: field(c.int), length_mm: field(c.int), width_mm: field(c.int), height_mm: field(c.int) },
    { id: 'Parcel', description: 'Grams and millimetres' },
  ))();

export const storedShipment = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    order_id: field(c.int).fixed(),
    order_number: field(c.string).fixed(),
    carrier: field(c.enumOf(CARRIERS)).fixed().describe('Test mode: the sandbox carrier serves every shipment, whatever was asked'),
    service: field(c.string).fixed().describe("The carrier's shipping option", 'postnl:standard'),
    status: field(c.enumOf(SHIPMENT_STATUSES)),
    partial: field(c.boolean).fixed().describe('Shipped while the order was still in production'),
    tracking_number: field(c.nullable(c.string)),
    tracking_url: field(c.nullable(c.string)),
    carrier_shipment_id: field(c.nullable(c.string)).describe("The carrier's id of the shipment"),
    carrier_parcel_ids: field(c.list(c.string)).describe("The carrier's parcel ids, one per parcel"),
    parcel_tracking: field(c.list(parcelTracking)).describe(
      'Each parcel with its own tracking number and status (the shipment is delivered when every parcel is); empty on shipments recorded before parcels were tracked apart',
    ),
    parcels: field(c.list(parcel)).fixed(),
    items: field(c.list(shippedLine)).fixed().describe('The quantities of the order lines this shipment carries'),
    address: field(orderAddress).fixed().describe('Where it goes: a copy'),
    label: field(
      c.nullable(
        c.object(
          {
            content_type: field(c.string),
            parcels: field(c.int).describe('Labels, one per parcel: `?parcel=n` picks one'),
            url: field(c.string).describe('Where to download it (this API, with the key)'),
          },
          { id: 'ShipmentLabel' },
        ),
      ),
    ),
    events: field(c.list(trackingEvent)).describe('What the carrier reported, oldest first (the newest 100)'),
    external_reference: field(c.string)
      .fixed()
      .describe("Our idempotency key at the carrier (Sendcloud's external_reference_id)", 'acct_1:live:shipment:42'),
    cancel_requested_at: field(c.nullable(c.timestamp)).describe('The carrier accepted a cancellation to carry out later'),
    return_shipment: field(c.nullable(returnShipment)).describe('Its return label, once made (POST /v1/shipments/{id}/return-label)'),
    delivered_at: field(c.nullable(c.timestamp)),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed(),
    /** creating: the carrier is being asked (the shipment is in no list, GET says 404); recorded: it has its label. */
    phase: field(c.enumOf(['creating', 'recorded'])).internal(),
    /** The time of the report the status came from: an older report never moves it. */
    status_at: field(c.string).internal(),
    /** Keys of the reports applied (the same callback twice is one), the newest 200. */
    seen: field(c.list(c.string)).internal(),
    tracking_refreshed_at: field(c.nullable(c.timestamp)).internal(),
    /** What was asked (carrier, service, parcels, items, address), hashed: a retry of the same request finds its recovered label. */
    request_hash: field(c.string).fixed().internal(),
    /**
     * Set on a `creating` shipment whose creator gave up without learning whether the carrier made its
     * label (no answer in time, a 5xx; or a failure recording the label it made): the next request for
     * the order settles it at once, without waiting STALE_CREATION_MS (creation.ts).
     */
    unsettled_at: field(c.nullable(c.timestamp)).internal(),
  }))();

export type ShipmentRecord = RecordOf<typeof storedShipment.shape>;

export const shipmentFromItem = (item: Record<string, unknown>): ShipmentRecord => storedShipment.read(item);

/** What the carrier made for a recorded shipment, as the carrier interface takes it. */
export const carrierLabelOf = (shipment: ShipmentRecord): CarrierLabel => ({
  carrier_shipment_id: shipment.carrier_shipment_id ?? '',
  parcel_ids: shipment.carrier_parcel_ids,
  tracking_number: shipment.tracking_number,
  tracking_url: shipment.tracking_url,
  parcel_tracking_numbers: shipment.carrier_parcel_ids.map(
    (id, index) =>
      shipment.parcel_tracking.find((parcel) => parcel.parcel_id === id)?.tracking_number ??
      (index === 0 ? shipment.tracking_number : null),
  ),
});

/** The order's shipping summary: one entry per shipment (`creating` while its label is asked for). */
export const storedOrderShipping = /* @__PURE__ */ (() =>
  entity({
    order_id: field(c.int).fixed(),
    shipments: field(
      c.list(
        c.object({
          id: field(c.int),
          status: field(c.enumOf([...SHIPMENT_STATUSES, 'creating'] as const)),
          items: field(c.list(shippedLine)),
        }),
      ),
    ),
    version: field(c.int).fixed(),
  }))();

export type OrderShippingRecord = RecordOf<typeof storedOrderShipping.shape>;

export const orderShippingFromItem = (item: Record<string, unknown>): OrderShippingRecord => storedOrderShipping.read(item);

/** A tenant's settings of one carrier: the credentials (secret sealed), the callback token, a sender. */
export const storedCarrierSettings = /* @__PURE__ */ (() =>
  entity({
    carrier: field(c.enumOf(CONFIGURABLE_CARRIERS)).fixed(),
    public_key: field(c.string),
    /** Sealed as `carrier-credentials`: only the functions that call the carrier open it. */
    secret_key: field(c.string).internal(),
    /**
     * What callbacks are verified with, sealed as `carrier-callback-secret` — the one kind the callback
     * function may open: the webhook signature key, or a second sealed copy of the secret key. Null on
     * settings stored before it existed (`npm run events -- seal-secrets` adds it).
     */
    callback_secret: field(c.nullable(c.string)).internal(),
    secret_hint: field(c.string).describe('The last 4 characters of the secret key', '…k3Yz'),
    base_url: field(c.nullable(c.string)).describe('Only under the local runtime: another API address (a local fake)'),
    sender_address: field(c.nullable(orderAddress)).describe("The sender on labels; null: the account company's address"),
    sender_address_id: field(c.nullable(c.int)).describe(
      "A sender address configured at the carrier (Sendcloud's sender_address_id): the sender when neither address is set",
      192,
    ),
    /** The path segment of the callback URL (`<account>.<mode>.<random>`): routes a callback to its tenant. */
    webhook_token: field(c.string).internal(),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed(),
  }))();

export type CarrierSettingsRecord = RecordOf<typeof storedCarrierSettings.shape>;

export const carrierSettingsFromItem = (item: Record<string, unknown>): CarrierSettingsRecord => storedCarrierSettings.read(item);

export const SHIPMENTS = 'shipments';
export const shipmentStatusCounter = (status: string): string => `${SHIPMENTS}:${status}`;

// ---- Item builders ----------------------------------------------------------------------------

/** A shipment being created: no list placement yet (conditional: the id is new). */
export function creatingShipmentPut(tenant: Tenant, shipment: ShipmentRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...shipmentKeys.shipment(tenant, shipment.id), entity: 'SHIPMENT', ...storedShipment.attributes(shipment, 'put') },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The order's summary written from `before` (undefined: the order's first shipment) to `after`, conditionally. */
export function orderShippingWrite(tenant: Tenant, before: OrderShippingRecord | undefined, after: OrderShippingRecord): TransactItem {
  const key = shipmentKeys.orderShipping(tenant, after.order_id);
  if (!before) {
    return {
      Put: {
        TableName: tableName(),
        Item: { ...key, entity: 'ORDER_SHIPPING', ...storedOrderShipping.attributes({ ...after, version: 1 }, 'put') },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  return versionedUpdate(key, storedOrderShipping.attributes(after, 'update'), before.version);
}

const placement = (tenant: Tenant, shipment: ShipmentRecord) => {
  const sortKey = createdSortKey(shipment.created_at, shipment.id);
  return {
    item: {
      gsi1pk: shipmentKeys.collection(tenant),
      gsi1sk: sortKey,
      gsi2pk: shipmentKeys.byStatus(tenant, shipment.status),
      gsi2sk: sortKey,
    },
    entry: {
      gsi1pk: shipmentKeys.byCarrier(tenant, shipment.carrier),
      gsi1sk: sortKey,
      gsi2pk: shipmentKeys.byCarrierAndStatus(tenant, shipment.carrier, shipment.status),
      gsi2sk: sortKey,
    },
  };
};

/**
 * Recording a label: the shipment (from `creating`, conditional on its version) enters its lists,
 * its carrier entry and parcel references are put, the totals move.
 */
export function recordedShipmentParts(tenant: Tenant, before: ShipmentRecord, after: ShipmentRecord): TransactItem[] {
  const { item, entry } = placement(tenant, after);
  return [
    versionedUpdate(shipmentKeys.shipment(tenant, before.id), { ...storedShipment.attributes(after, 'update'), ...item }, before.version, {
      condition: '#phase = :creating',
      names: { '#phase': 'phase' },
      values: { ':creating': 'creating' },
    }),
    {
      Put: {
        TableName: tableName(),
        Item: { ...shipmentKeys.carrierEntry(tenant, after.id), entity: 'SHIPMENT_LIST_ENTRY', shipment_id: after.id, ...entry },
      },
    },
    ...after.carrier_parcel_ids.map((parcelId): TransactItem => ({
      Put: {
        TableName: tableName(),
        Item: { ...shipmentKeys.parcel(tenant, after.carrier, parcelId), entity: 'CARRIER_PARCEL', shipment_id: after.id },
      },
    })),
    adjustTotal(tenant, SHIPMENTS, 1),
    adjustTotal(tenant, shipmentStatusCounter(after.status), 1),
  ];
}

/** A recorded shipment's change, conditional on its version; a status change moves its lists and totals. */
export function shipmentChangeParts(tenant: Tenant, before: ShipmentRecord, after: ShipmentRecord): TransactItem[] {
  const { item, entry } = placement(tenant, after);
  const parts: TransactItem[] = [
    versionedUpdate(
      shipmentKeys.shipment(tenant, before.id),
      { ...storedShipment.attributes(after, 'update'), gsi2pk: item.gsi2pk },
      before.version,
      { condition: '#phase = :recorded', names: { '#phase': 'phase' }, values: { ':recorded': 'recorded' } },
    ),
  ];
  if (before.status !== after.status) {
    parts.push(
      {
        Update: {
          TableName: tableName(),
          Key: shipmentKeys.carrierEntry(tenant, before.id),
          UpdateExpression: 'SET gsi2pk = :partition',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':partition': entry.gsi2pk },
        },
      },
      adjustTotal(tenant, shipmentStatusCounter(before.status), -1),
      adjustTotal(tenant, shipmentStatusCounter(after.status), 1),
    );
  }
  return parts;
}

/**
 * A return label recorded on its shipment (conditional on the shipment's version and on it having
 * none yet), with the reference that names the return parcel's callbacks (`role: return`).
 */
export function returnRecordedParts(tenant: Tenant, before: ShipmentRecord, after: ShipmentRecord): TransactItem[] {
  const made = after.return_shipment!;
  return [
    versionedUpdate(shipmentKeys.shipment(tenant, before.id), storedShipment.attributes(after, 'update'), before.version, {
      condition: '#phase = :recorded AND attribute_not_exists(#return)',
      names: { '#phase': 'phase', '#return': 'return_shipment' },
      values: { ':recorded': 'recorded' },
    }),
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...shipmentKeys.parcel(tenant, after.carrier, made.carrier_parcel_id),
          entity: 'CARRIER_PARCEL',
          shipment_id: after.id,
          role: 'return',
        },
      },
    },
  ];
}

/** Marks a `creating` shipment unsettled (see `unsettled_at`), conditional on its phase and version. */
export function unsettledShipmentUpdate(tenant: Tenant, shipment: ShipmentRecord, at: string): TransactItem {
  return versionedUpdate(shipmentKeys.shipment(tenant, shipment.id), { unsettled_at: at, updated_at: at }, shipment.version, {
    condition: '#phase = :creating',
    names: { '#phase': 'phase' },
    values: { ':creating': 'creating' },
  });
}

/** Removing a shipment whose label was never made (the carrier refused, or recovery found none). */
export function creatingShipmentDelete(tenant: Tenant, shipment: ShipmentRecord): TransactItem {
  return {
    Delete: {
      TableName: tableName(),
      Key: shipmentKeys.shipment(tenant, shipment.id),
      ConditionExpression: '#phase = :creating AND #version = :version',
      ExpressionAttributeNames: { '#phase': 'phase', '#version': 'version' },
      ExpressionAttributeValues: { ':creating': 'creating', ':version': shipment.version },
    },
  };
}

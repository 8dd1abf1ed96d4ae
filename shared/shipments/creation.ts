/**
 * Creating a shipment (`POST /v1/shipments`) never holds a transaction open while the carrier
 * makes the label:
 * 1. one transaction reserves: the shipment in phase `creating` (in no list yet) and its entry in
 *    the order's shipping summary (the line quantities it takes), conditional on the summary's
 *    version and the order's status;
 * 2. the carrier makes the label, with our reference for it (`external_reference`, Sendcloud's
 *    `external_reference_id`), the same for every attempt of this shipment;
 * 3. the labels go to the documents bucket, and a second transaction records the shipment.
 * A carrier's refusal removes the reservation (nothing is recorded as shipped). A label the carrier
 * made is never orphaned: when the carrier's answer is lost — no answer in time, a 5xx, nothing found
 * by the reference before the deadline (CarrierOutcomeUnknown) — or recording the label it made
 * fails, the reservation is kept and marked unsettled, and the request answers 502 saying so. A crash
 * between 1 and 3 leaves a `creating` entry too. The next shipment request for the order settles
 * such entries — unsettled ones at once, others once older than STALE_CREATION_MS: the same request
 * again (a client's retry) continues its reservation — the label found by the reference, or
 * announced again under it (Sendcloud answers a 409 with the shipment it made, adopted), and only a
 * cancelled or failed shipment under it (CarrierReferenceSpent) removes the reservation and lets
 * the request start anew; any other request records the label the carrier has for each entry's
 * reference, or removes the reservation when there is none. A label is adopted only when its
 * reference is exactly ours and its parcels are not cancelled (the carrier adapter decides).
 */
import { createHash } from 'node:crypto';
import { getAccount } from '#shared/accounts/repository';
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import type { TransactItem, TransactionPart } from '#shared/db/table';
import { ConflictError, NotFoundError, ValidationError, VersionConflict, type ErrorDetail } from '#shared/errors';
import { readOrderToInvoice } from '#shared/invoices/repository';
import { logger } from '#shared/logger';
import { snapshotAddress } from '#shared/orders/addresses';
import { readOwner } from '#shared/orders/offers';
import type { OrderRecord } from '#shared/orders/stored';
import { orderStatusCheck } from '#shared/orders/transitions';
import {
  CarrierOutcomeUnknown,
  CarrierReferenceSpent,
  type Carrier,
  type CarrierLabel,
  type CustomsDeclaration,
  type LabelAddress,
  type LabelRequest,
} from './carriers/carrier';
import { needsCustoms } from './carriers/customs-area';
import { customsDeclarationOf } from './customs';
import { renderSpecimen, storeLabels } from './labels';
import { remainingLines, type ShippedLine } from './milestones';
import * as repo from './repository';
import { MAX_SHIPMENTS_PER_ORDER, type ShipmentCreate } from './schema';
import { carrierFor } from './settings';
import type { TrackingEvent } from './status';
import {
  creatingShipmentDelete,
  creatingShipmentPut,
  orderShippingWrite,
  recordedShipmentParts,
  type OrderShippingRecord,
  type ShipmentRecord,
  type CarrierSettingsRecord,
} from './stored';
import { presentShipment } from './updates';

type ShipmentView = ReturnType<typeof presentShipment>;

/** A `creating` shipment older than this is taken for one whose creator crashed (routes end after 29 s). */
export const STALE_CREATION_MS = 2 * 60_000;

const summaryMoved = () => new VersionConflict('order shipping');

/** Thrown inside when another request recorded or removed a `creating` shipment first. */
class Settled extends Error {}

// ---- Rules ------------------------------------------------------------------------------------

/** Only `ready` orders ship, or `in_production` ones with `partial: true`; 409 otherwise. */
function assertShippable(order: OrderRecord, partial: boolean): void {
  if (order.status === 'ready') return;
  if (order.status === 'in_production' && partial) return;
  const hint = order.status === 'in_production' ? ' (send partial: true to ship part of it now)' : '';
  throw new ConflictError(`Order ${order.order_number} is ${order.status}: only ready orders ship${hint}`, [
    { field: 'order_id', message: `the order is ${order.status}` },
  ]);
}

/** The quantities this shipment takes: the ones asked for (each within what is left), or everything left. */
function shipmentItems(order: OrderRecord, summary: OrderShippingRecord | undefined, asked: ShippedLine[] | undefined): ShippedLine[] {
  const left = remainingLines(order.items, summary?.shipments ?? []);
  if (!asked) {
    if (left.length === 0) throw new ConflictError(`Everything of order ${order.order_number} is shipped already`);
    return left;
  }
  const problems: ErrorDetail[] = [];
  const merged = new Map<number, number>();
  for (const item of asked) merged.set(item.line_id, (merged.get(item.line_id) ?? 0) + item.quantity);
  for (const [lineId, quantity] of merged) {
    const index = asked.findIndex((item) => item.line_id === lineId);
    if (!order.items.some((line) => line.id === lineId)) {
      problems.push({ field: `items[${index}].line_id`, message: `order ${order.order_number} has no line ${lineId}` });
      continue;
    }
    const open = left.find((line) => line.line_id === lineId)?.quantity ?? 0;
    if (quantity > open) problems.push({ field: `items[${index}].quantity`, message: `only ${open} of line ${lineId} are left to ship` });
  }
  if (problems.length) throw new ValidationError('The shipment asks for more than is left to ship', problems);
  return [...merged].map(([line_id, quantity]) => ({ line_id, quantity }));
}

/** What was asked, hashed: a retry of the same request recognises the shipment its first attempt left. */
/**
 * The shipment a creation reserves before it asks the carrier (`phase: creating`, in no list): its
 * `external_reference` is the idempotency key the carrier is sent, so a crash after the carrier
 * answered is found again by it.
 */
export function reservedShipment(
  tenant: Tenant,
  id: number,
  order: Pick<OrderRecord, 'id' | 'order_number'>,
  input: ShipmentCreate,
  reservation: { items: ShipmentRecord['items']; address: ShipmentRecord['address']; partial: boolean; at: string; hash: string },
): ShipmentRecord {
  return {
    id,
    order_id: order.id,
    order_number: order.order_number,
    carrier: input.carrier,
    service: input.service,
    status: 'label_created',
    partial: reservation.partial,
    tracking_number: null,
    tracking_url: null,
    carrier_shipment_id: null,
    carrier_parcel_ids: [],
    parcel_tracking: [],
    parcels: input.parcels,
    items: reservation.items,
    address: reservation.address,
    label: null,
    events: [],
    external_reference: `${tenant.accountId}:${tenant.mode}:shipment:${id}`,
    cancel_requested_at: null,
    return_shipment: null,
    delivered_at: null,
    created_at: reservation.at,
    updated_at: reservation.at,
    version: 1,
    phase: 'creating',
    status_at: reservation.at,
    seen: [],
    tracking_refreshed_at: null,
    request_hash: reservation.hash,
    unsettled_at: null,
  };
}

export const requestHash = (input: ShipmentCreate): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        input.order_id,
        input.carrier,
        input.service,
        input.parcels,
        input.items ?? null,
        input.address_id ?? null,
        input.partial,
      ]),
    )
    .digest('hex');

/** Who a label says sent it: an address, or a sender address configured at the carrier (by id); neither for the sandbox. */
export interface Sender {
  from: LabelAddress | null;
  sender_address_id: number | null;
}

const NO_SENDER: Sender = { from: null, sender_address_id: null };

const labelRequestOf = (
  shipment: ShipmentRecord,
  sender: Sender,
  email: string | null,
  customs: CustomsDeclaration | null = null,
): LabelRequest => ({
  reference: shipment.external_reference,
  service: shipment.service,
  order_number: shipment.order_number,
  parcels: shipment.parcels,
  to: { ...shipment.address, email },
  ...sender,
  customs,
});

/**
 * The invoice number a customs declaration names: the order's invoice's when it has one (not void),
 * else null (the order number is declared); read only for a destination outside the EU customs area.
 */
async function invoiceNumberFor(tenant: Tenant, order: OrderRecord, country: string): Promise<string | null> {
  if (!needsCustoms(country)) return null;
  return (await readOrderToInvoice(tenant, order.id)).marked?.invoice_number ?? null;
}

// ---- Create -----------------------------------------------------------------------------------

/** Records a label the carrier made for a `creating` shipment (after storing the label PDFs). */
async function recordLabel(
  tenant: Tenant,
  creating: ShipmentRecord,
  label: CarrierLabel,
  carrier: Carrier,
  known: OrderShippingRecord | undefined,
  now: Date,
): Promise<ShipmentRecord> {
  const at = now.toISOString();
  const event: TrackingEvent = {
    status: 'label_created',
    description: 'Label created',
    location: null,
    occurred_at: at,
    carrier_status: null,
  };
  const recorded: ShipmentRecord = {
    ...creating,
    phase: 'recorded',
    status: 'label_created',
    tracking_number: label.tracking_number,
    tracking_url: label.tracking_url,
    carrier_shipment_id: label.carrier_shipment_id,
    carrier_parcel_ids: label.parcel_ids,
    parcel_tracking: label.parcel_ids.map((parcel_id, index) => ({
      parcel_id,
      tracking_number: label.parcel_tracking_numbers?.[index] ?? (index === 0 ? label.tracking_number : null),
      status: 'label_created' as const,
      status_at: at,
    })),
    label: { content_type: 'application/pdf', parcels: label.parcel_ids.length, url: `/v1/shipments/${creating.id}/label` },
    events: [event],
    status_at: at,
    seen: [],
    updated_at: at,
    version: creating.version + 1,
  };
  await storeLabels(tenant, recorded, carrier);
  try {
    await retryOnVersionConflict('order shipping', async (attempt) => {
      const summary = attempt === 1 && known ? known : await repo.readOrderShipping(tenant, creating.order_id, true);
      const entries = (summary?.shipments ?? []).filter((entry) => entry.id !== creating.id);
      const next: OrderShippingRecord = {
        order_id: creating.order_id,
        shipments: [...entries, { id: creating.id, status: 'label_created', items: creating.items }],
        version: (summary?.version ?? 0) + 1,
      };
      const [shipmentUpdate, ...rest] = recordedShipmentParts(tenant, creating, recorded);
      await repo.writeShipmentChange([
        { item: shipmentUpdate!, onConditionFailure: () => new Settled() },
        ...rest,
        { item: orderShippingWrite(tenant, summary, next), onConditionFailure: summaryMoved },
      ]);
    });
  } catch (error) {
    if (!(error instanceof Settled)) throw error;
    // Recorded (or removed) by another request meanwhile: its answer is the truth.
    const current = await repo.readShipment(tenant, creating.id, true);
    if (current?.phase === 'recorded') return current;
    throw new ConflictError('The shipment was removed while its label was being recorded; try again');
  }
  return recorded;
}

/** Removes a `creating` shipment and its reservation (the carrier made no label). */
async function releaseCreation(tenant: Tenant, creating: ShipmentRecord): Promise<void> {
  try {
    await retryOnVersionConflict('order shipping', async () => {
      const summary = await repo.readOrderShipping(tenant, creating.order_id, true);
      const parts: (TransactItem | TransactionPart)[] = [
        { item: creatingShipmentDelete(tenant, creating), onConditionFailure: () => new Settled() },
      ];
      if (summary?.shipments.some((entry) => entry.id === creating.id)) {
        const next = { ...summary, shipments: summary.shipments.filter((entry) => entry.id !== creating.id), version: summary.version + 1 };
        parts.push({ item: orderShippingWrite(tenant, summary, next), onConditionFailure: summaryMoved });
      }
      await repo.writeShipmentChange(parts);
    });
  } catch (error) {
    if (!(error instanceof Settled)) throw error;
  }
}

/** Whether the next request for the order settles a `creating` shipment now: its creator gave up unsure, or is taken for crashed. */
export const settleable = (shipment: Pick<ShipmentRecord, 'unsettled_at' | 'created_at'>, now: Date): boolean =>
  shipment.unsettled_at !== null || now.getTime() - Date.parse(shipment.created_at) >= STALE_CREATION_MS;

/**
 * The order's `creating` shipments to settle now (settleable): the first one the same request left
 * (`hash`) is handed back to be resumed; for the others, each label the carrier has for its
 * reference is recorded, the others' reservations removed. Returns the ones recorded.
 */
async function recoverStale(
  tenant: Tenant,
  summary: OrderShippingRecord | undefined,
  now: Date,
  hash: string,
): Promise<{ recovered: ShipmentRecord[]; resumable?: ShipmentRecord }> {
  const recovered: ShipmentRecord[] = [];
  let resumable: ShipmentRecord | undefined;
  for (const entry of summary?.shipments.filter((candidate) => candidate.status === 'creating') ?? []) {
    const shipment = await repo.readShipment(tenant, entry.id, true);
    if (shipment?.phase === 'recorded') continue;
    if (!shipment) {
      // A reservation without its shipment (cannot happen: both are written together); drop it.
      await retryOnVersionConflict('order shipping', async () => {
        const current = await repo.readOrderShipping(tenant, summary!.order_id, true);
        if (!current?.shipments.some((candidate) => candidate.id === entry.id)) return;
        const next = {
          ...current,
          shipments: current.shipments.filter((candidate) => candidate.id !== entry.id),
          version: current.version + 1,
        };
        await repo.writeShipmentChange([{ item: orderShippingWrite(tenant, current, next), onConditionFailure: summaryMoved }]);
      });
      continue;
    }
    if (!settleable(shipment, now)) continue;
    if (!resumable && shipment.request_hash === hash) {
      resumable = shipment;
      continue;
    }
    const carrier = await carrierFor(tenant, shipment.carrier, undefined, { renderSpecimen });
    const label = await carrier.findByReference(shipment.external_reference, labelRequestOf(shipment, NO_SENDER, null));
    logger.info('recovering a shipment left in creation', { shipment: shipment.id, found: Boolean(label) });
    if (label) recovered.push(await recordOrKeep(tenant, shipment, label, carrier, undefined, now));
    else await releaseCreation(tenant, shipment);
  }
  return { recovered, ...(resumable ? { resumable } : {}) };
}

/** Marks a `creating` shipment unsettled (best effort: without the mark, it is settled once stale). */
async function markUnsettled(tenant: Tenant, creating: ShipmentRecord): Promise<void> {
  await repo
    .markCreationUnsettled(tenant, creating, new Date().toISOString())
    .catch((error: unknown) => logger.error('could not mark a shipment unsettled; it is settled once stale', error as Error));
}

/**
 * Asks the carrier for the label of a reserved shipment. When the carrier cannot say whether it made
 * one (CarrierOutcomeUnknown) the reservation is kept and marked unsettled, and the error says to
 * send the same request again; any other failure made nothing: the reservation is removed.
 */
async function askCarrier(tenant: Tenant, creating: ShipmentRecord, carrier: Carrier, request: LabelRequest): Promise<CarrierLabel> {
  try {
    return await carrier.createLabel(request);
  } catch (error) {
    if (error instanceof CarrierOutcomeUnknown) {
      await markUnsettled(tenant, creating);
      throw new CarrierOutcomeUnknown(
        `${error.message}. The label may exist: send the same request again — it finds the label by the shipment's reference ` +
          `(${creating.external_reference}) instead of making another`,
        error.carrierStatus,
      );
    }
    // Refused or failed: nothing was made (Sendcloud's failed announcement makes no label), so nothing is kept.
    await releaseCreation(tenant, creating).catch((release: unknown) =>
      logger.error('could not remove a refused shipment; the next request for its order does', release as Error),
    );
    throw error;
  }
}

/** Records the label; when that fails, the label exists at the carrier: the reservation is marked unsettled for the next request. */
async function recordOrKeep(
  tenant: Tenant,
  creating: ShipmentRecord,
  label: CarrierLabel,
  carrier: Carrier,
  known: OrderShippingRecord | undefined,
  now: Date,
): Promise<ShipmentRecord> {
  try {
    return await recordLabel(tenant, creating, label, carrier, known, now);
  } catch (error) {
    if (!(error instanceof ConflictError)) await markUnsettled(tenant, creating);
    throw error;
  }
}

/**
 * The same request again, for a `creating` shipment it left (resumable): the label the carrier made
 * for its reference is recorded — found by the reference, or adopted from the carrier's answer to
 * announcing it again (Sendcloud: 409 with the shipment) — or made now under the same reference.
 * Undefined when the carrier holds a cancelled or failed shipment under it: its reservation is then
 * removed, and the request goes on with a new one.
 */
async function resumeCreation(
  tenant: Tenant,
  creating: ShipmentRecord,
  carrier: Carrier,
  request: LabelRequest,
  now: Date,
): Promise<ShipmentRecord | undefined> {
  let label = await carrier.findByReference(creating.external_reference, request);
  logger.info('resuming a shipment left in creation', { shipment: creating.id, found: Boolean(label) });
  if (!label) {
    try {
      label = await askCarrier(tenant, creating, carrier, request);
    } catch (error) {
      if (error instanceof CarrierReferenceSpent) return undefined; // removed by askCarrier: start anew
      throw error;
    }
  }
  return recordOrKeep(tenant, creating, label, carrier, undefined, now);
}

/**
 * The sender of a live label, in this order: the carrier settings' sender address, the account
 * company's address (`PUT /v1/account`), the id of a sender address configured at Sendcloud
 * (`sender_address_id` in the carrier settings). Sendcloud's v3 announce requires one
 * (`from_address`), so with none the shipment is refused here — 422 naming what to configure —
 * before anything is reserved or asked of the carrier. Test mode: the sandbox needs none.
 */
export async function senderOf(tenant: Tenant, settings: CarrierSettingsRecord | undefined): Promise<Sender> {
  if (tenant.mode === 'test' || !settings) return NO_SENDER;
  if (settings.sender_address) return { from: settings.sender_address, sender_address_id: null };
  const company = (await getAccount(tenant.accountId))?.company;
  if (company?.address) {
    const from = { ...company.address, name: company.legal_name ?? company.address.name, email: company.email, phone: company.phone };
    return { from, sender_address_id: null };
  }
  if (settings.sender_address_id !== null) return { from: null, sender_address_id: settings.sender_address_id };
  throw new ValidationError(`A live ${settings.carrier} shipment needs a sender, and none is configured`, [
    {
      field: 'sender_address',
      message:
        `set sender_address (or sender_address_id, a sender address of your ${settings.carrier} account) with PUT /v1/carriers/${settings.carrier}, ` +
        "or the company's address with PUT /v1/account",
    },
  ]);
}

/** `POST /v1/shipments`: reserve, ask the carrier, record (see the module comment). */
export async function createShipment(tenant: Tenant, input: ShipmentCreate, now = new Date()): Promise<ShipmentView> {
  const [first, settings] = await Promise.all([
    repo.readOrderWithShipping(tenant, input.order_id),
    tenant.mode === 'live' && input.carrier !== 'sandbox' ? repo.readCarrierSettings(tenant, input.carrier) : Promise.resolve(undefined),
  ]);
  if (!first.order) throw new NotFoundError('order', input.order_id);
  assertShippable(first.order, input.partial);
  const carrier = await carrierFor(tenant, input.carrier, settings, { renderSpecimen });
  const sender = await senderOf(tenant, settings);
  const hash = requestHash(input);

  // Earlier attempts' labels first: this request's own resumed, others' found and recorded (or their reservations removed).
  let state = first;
  if (first.shipping?.shipments.some((entry) => entry.status === 'creating')) {
    const { recovered, resumable } = await recoverStale(tenant, first.shipping, now, hash);
    const same = recovered.find((shipment) => shipment.request_hash === hash);
    if (same) return presentShipment(same);
    if (resumable) {
      const invoiceNumber = await invoiceNumberFor(tenant, first.order, resumable.address.country);
      const customs = customsDeclarationOf(first.order, resumable, invoiceNumber);
      const request = labelRequestOf(resumable, sender, first.order.customer.email, customs);
      const resumed = await resumeCreation(tenant, resumable, carrier, request, now);
      if (resumed) return presentShipment(resumed);
    }
    // Recorded or removed: either way the summary changed.
    state = await repo.readOrderWithShipping(tenant, input.order_id);
  }

  let address = state.order!.shipping_address;
  if (input.address_id !== undefined) {
    const owner = await readOwner(tenant, state.order!.customer.id);
    const chosen = owner?.addresses.find((candidate) => candidate.id === input.address_id);
    if (!chosen) {
      throw new ValidationError('Unknown address', [
        { field: 'address_id', message: `customer ${state.order!.customer.id} has no address with id ${input.address_id}` },
      ]);
    }
    address = snapshotAddress(chosen);
  }
  if (!address) {
    throw new ValidationError('The order has no shipping address', [
      { field: 'address_id', message: "the order has no shipping address: name one of the customer's addresses" },
    ]);
  }

  // Outside the EU customs area every line shipped declares its customs data: checked before the id is taken.
  const invoiceNumber = await invoiceNumberFor(tenant, state.order!, address.country);
  customsDeclarationOf(state.order!, { items: shipmentItems(state.order!, state.shipping, input.items), address }, invoiceNumber);

  const id = await nextId(tenant, 'shipment');
  const at = now.toISOString();
  let reserved: { shipment: ShipmentRecord; summary: OrderShippingRecord; customs: CustomsDeclaration | null } | undefined;
  await retryOnVersionConflict('order shipping', async (attempt) => {
    const { order, shipping } = attempt === 1 ? state : await repo.readOrderWithShipping(tenant, input.order_id);
    if (!order) throw new NotFoundError('order', input.order_id);
    assertShippable(order, input.partial);
    if ((shipping?.shipments.length ?? 0) >= MAX_SHIPMENTS_PER_ORDER) {
      throw new ConflictError(`Order ${order.order_number} has ${MAX_SHIPMENTS_PER_ORDER} shipments, the most an order can have`);
    }
    const items = shipmentItems(order, shipping, input.items);
    const shipment = reservedShipment(tenant, id, order, input, {
      items,
      address: address!,
      partial: order.status !== 'ready' || items.length !== remainingLines(order.items, shipping?.shipments ?? []).length,
      at,
      hash,
    });
    // The order as read now (its lines may only be what was checked above: lines do not change once ordered).
    const customs = customsDeclarationOf(order, shipment, invoiceNumber);
    const summary: OrderShippingRecord = {
      order_id: order.id,
      shipments: [...(shipping?.shipments ?? []), { id, status: 'creating', items }],
      version: (shipping?.version ?? 0) + 1,
    };
    await repo.writeShipmentChange([
      creatingShipmentPut(tenant, shipment),
      { item: orderShippingWrite(tenant, shipping, summary), onConditionFailure: summaryMoved },
      // Only an order still as it was read ships (ready, or in production for a partial shipment): the orders' own check.
      orderStatusCheck(tenant, order.id, order.status),
    ]);
    reserved = { shipment, summary, customs };
  });
  const { shipment, summary, customs } = reserved!;

  const label = await askCarrier(tenant, shipment, carrier, labelRequestOf(shipment, sender, state.order!.customer.email, customs));
  return presentShipment(await recordOrKeep(tenant, shipment, label, carrier, summary, now));
}

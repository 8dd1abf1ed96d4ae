/**
 * Returns (`POST /v1/shipments/{id}/return-label`): the carrier makes a return label for a shipment
 * — the customer sends it back from where it went to the shop's address — through the carrier
 * interface (Sendcloud's v3 returns API; the sandbox in test mode). The return is recorded on its
 * shipment with its own parcel, tracking and status; its parcel's callbacks and tracking move the
 * return, not the shipment (updates.ts `applyReturnUpdates`), and its arrival back at the shop writes
 * `shipment.returned`, once. One return per shipment; a shipment not on its way yet, cancelled or
 * already returned to the shop by its carrier takes none (409).
 */
import type { Tenant } from '#shared/auth/principal';
import { ConflictError, ValidationError } from '#shared/errors';
import { readOrderToInvoice } from '#shared/invoices/repository';
import type { LabelAddress } from './carriers/carrier';
import { needsCustoms } from './carriers/customs-area';
import { senderOf } from './creation';
import { customsDeclarationOf } from './customs';
import * as repo from './repository';
import type { ReturnLabelCreate } from './schema';
import { carrierFor } from './settings';
import { returnRecordedParts, type ShipmentRecord } from './stored';
import { presentShipment } from './updates';

/** Statuses whose shipment takes no return label: not on its way yet, cancelled, or back at the shop already. */
const NO_RETURN: readonly ShipmentRecord['status'][] = ['label_created', 'cancelled', 'returned'];

/** Where the return goes: the shop's sender address (a whole one: Sendcloud's returns take no sender address id). */
async function shopAddressOf(tenant: Tenant, shipment: ShipmentRecord): Promise<LabelAddress> {
  const settings =
    tenant.mode === 'live' && shipment.carrier !== 'sandbox' ? await repo.readCarrierSettings(tenant, shipment.carrier) : undefined;
  const sender = await senderOf(tenant, settings);
  if (sender.from) return sender.from;
  if (tenant.mode === 'test') return shipment.address; // the sandbox sends nothing anywhere
  throw new ValidationError('A return needs the shop’s whole address to come back to', [
    {
      field: 'sender_address',
      message: `set sender_address with PUT /v1/carriers/${shipment.carrier}, or the company's address with PUT /v1/account (a sender address id is not enough for a return)`,
    },
  ]);
}

export async function createReturnLabel(tenant: Tenant, id: number, input: ReturnLabelCreate, now = new Date()) {
  const shipment = await repo.requireShipment(tenant, id, true);
  if (shipment.return_shipment) throw new ConflictError(`Shipment ${id} has a return label already`);
  if (NO_RETURN.includes(shipment.status)) {
    throw new ConflictError(`Shipment ${id} is ${shipment.status}: a return label is for a shipment on its way or delivered`);
  }
  const [{ order }, to] = await Promise.all([repo.readOrderWithShipping(tenant, shipment.order_id), shopAddressOf(tenant, shipment)]);
  const invoiceNumber =
    order && needsCustoms(shipment.address.country) ? ((await readOrderToInvoice(tenant, order.id)).marked?.invoice_number ?? null) : null;
  const customs = order ? customsDeclarationOf(order, shipment, invoiceNumber) : null;
  const carrier = await carrierFor(tenant, shipment.carrier);
  const made = await carrier.createReturn({
    reference: `${shipment.external_reference}:return`,
    service: input.service,
    order_number: shipment.order_number,
    parcel: input.parcel ?? shipment.parcels[0]!,
    from: { ...shipment.address, email: order?.customer.email ?? null },
    to,
    customs,
  });
  const at = now.toISOString();
  const after: ShipmentRecord = {
    ...shipment,
    return_shipment: {
      carrier_return_id: made.carrier_return_id,
      carrier_parcel_id: made.parcel_id,
      service: input.service,
      status: 'label_created',
      tracking_number: made.tracking_number,
      tracking_url: made.tracking_url,
      events: [{ status: 'label_created', description: 'Return label created', location: null, occurred_at: at, carrier_status: null }],
      created_at: at,
      arrived_at: null,
      status_at: at,
      seen: [],
    },
    updated_at: at,
    version: shipment.version + 1,
  };
  await repo.writeShipmentChange(
    returnRecordedParts(tenant, shipment, after).map((item, index) =>
      index === 0
        ? { item, onConditionFailure: () => new ConflictError(`Shipment ${id} changed meanwhile; send the request again`) }
        : item,
    ),
  );
  return presentShipment(after);
}

/**
 * Shipping labels in the documents bucket, one PDF per parcel (`shipmentKeys.label`): stored when
 * the label is recorded, served from there; a label not stored (the carrier's download failed
 * then) is fetched from the carrier on first download and stored. A label never changes.
 * The return label (`shipmentKeys.returnLabel`) likewise: fetched from the carrier on its first
 * download (Sendcloud: the return's parcel's label document; the sandbox draws its SPECIMEN) and
 * served from the bucket after that.
 */
import type { Tenant } from '#shared/auth/principal';
import { shipmentKeys } from '#shared/db/keys';
import { DomainError, NotFoundError } from '#shared/errors';
import { isStored, presignedGet, readStored, store } from '#shared/invoices/document-store';
import { logger } from '#shared/logger';
import type { Carrier, CarrierLabel, LabelDetails } from './carriers/carrier';
import type { SpecimenRenderer } from './carriers/sandbox';
import { carrierFor } from './settings';
import { carrierLabelOf, type ShipmentRecord } from './stored';

const PDF = 'application/pdf';

export const labelFilename = (shipment: Pick<ShipmentRecord, 'id'>, parcel: number): string =>
  `shipment-${shipment.id}-label-${parcel}.pdf`;

/** The sandbox's SPECIMEN renderer, loaded on first need (only the bundles of the label routes carry it). */
export const renderSpecimen: SpecimenRenderer = async (label) => (await import('./label-pdf')).renderSpecimenLabel(label);

const detailsOf = (shipment: ShipmentRecord): LabelDetails => ({
  service: shipment.service,
  order_number: shipment.order_number,
  to: shipment.address,
  from: null,
});

/** Fetches and stores every parcel's label now; a failure is logged, not thrown (the download fetches it later). */
export async function storeLabels(tenant: Tenant, shipment: ShipmentRecord, carrier: Carrier): Promise<void> {
  const label = carrierLabelOf(shipment);
  await Promise.all(
    label.parcel_ids.map(async (_, index) => {
      try {
        const bytes = await carrier.getLabel(label, index, detailsOf(shipment));
        await store(shipmentKeys.label(tenant, shipment.id, index + 1), bytes, PDF, labelFilename(shipment, index + 1));
      } catch (error) {
        logger.warn('label not stored at creation; the first download fetches it', { shipment: shipment.id, error: error as Error });
      }
    }),
  );
}

function assertParcel(shipment: ShipmentRecord, parcel: number): void {
  if (parcel < 1 || parcel > shipment.carrier_parcel_ids.length) {
    throw new NotFoundError(`label of parcel ${parcel} on shipment`, shipment.id);
  }
}

async function fetchAndStore(tenant: Tenant, shipment: ShipmentRecord, parcel: number): Promise<Uint8Array> {
  const carrier = await carrierFor(tenant, shipment.carrier, undefined, { renderSpecimen });
  const bytes = await carrier.getLabel(carrierLabelOf(shipment), parcel - 1, detailsOf(shipment));
  await store(shipmentKeys.label(tenant, shipment.id, parcel), bytes, PDF, labelFilename(shipment, parcel));
  return bytes;
}

/** The PDF of one parcel's label (1-based), from the bucket or fetched from the carrier now. */
export async function labelPdf(
  tenant: Tenant,
  shipment: ShipmentRecord,
  parcel: number,
): Promise<{ bytes: Uint8Array; filename: string; cached: boolean }> {
  assertParcel(shipment, parcel);
  const filename = labelFilename(shipment, parcel);
  const stored = await readStored(shipmentKeys.label(tenant, shipment.id, parcel));
  if (stored) return { bytes: stored, filename, cached: true };
  return { bytes: await fetchAndStore(tenant, shipment, parcel), filename, cached: false };
}

/** A presigned URL of one parcel's label (fetched first if need be), valid 15 minutes. */
export async function presignedLabel(tenant: Tenant, shipment: ShipmentRecord, parcel: number, now = new Date()) {
  assertParcel(shipment, parcel);
  const key = shipmentKeys.label(tenant, shipment.id, parcel);
  if (!(await isStored(key))) await fetchAndStore(tenant, shipment, parcel);
  return presignedGet(key, PDF, labelFilename(shipment, parcel), now);
}

export const returnLabelFilename = (shipment: Pick<ShipmentRecord, 'id'>): string => `shipment-${shipment.id}-return-label.pdf`;

/** The return as the carrier interface's label: one parcel, the return's. 404 while the shipment has no return. */
function returnOf(shipment: ShipmentRecord): { label: CarrierLabel; details: LabelDetails } {
  const made = shipment.return_shipment;
  if (!made) {
    throw new DomainError(
      'not_found',
      `Shipment ${shipment.id} has no return label yet: make one with POST /v1/shipments/${shipment.id}/return-label`,
    );
  }
  return {
    label: {
      carrier_shipment_id: made.carrier_return_id,
      parcel_ids: [made.carrier_parcel_id],
      tracking_number: made.tracking_number,
      tracking_url: made.tracking_url,
    },
    // For the sandbox's SPECIMEN: the return's service, back to where test mode's returns go (returns.ts).
    details: { service: made.service, order_number: shipment.order_number, to: shipment.address, from: null },
  };
}

async function fetchAndStoreReturn(tenant: Tenant, shipment: ShipmentRecord): Promise<Uint8Array> {
  const { label, details } = returnOf(shipment);
  const carrier = await carrierFor(tenant, shipment.carrier, undefined, { renderSpecimen });
  const bytes = await carrier.getLabel(label, 0, details);
  await store(shipmentKeys.returnLabel(tenant, shipment.id), bytes, PDF, returnLabelFilename(shipment));
  return bytes;
}

/** The return label's PDF, from the bucket or fetched from the carrier now (404 before a return is made). */
export async function returnLabelPdf(
  tenant: Tenant,
  shipment: ShipmentRecord,
): Promise<{ bytes: Uint8Array; filename: string; cached: boolean }> {
  returnOf(shipment);
  const filename = returnLabelFilename(shipment);
  const stored = await readStored(shipmentKeys.returnLabel(tenant, shipment.id));
  if (stored) return { bytes: stored, filename, cached: true };
  return { bytes: await fetchAndStoreReturn(tenant, shipment), filename, cached: false };
}

/** A presigned URL of the return label (fetched first if need be), valid 15 minutes. */
export async function presignedReturnLabel(tenant: Tenant, shipment: ShipmentRecord, now = new Date()) {
  returnOf(shipment);
  const key = shipmentKeys.returnLabel(tenant, shipment.id);
  if (!(await isStored(key))) await fetchAndStoreReturn(tenant, shipment);
  return presignedGet(key, PDF, returnLabelFilename(shipment), now);
}

/**
 * The sandbox carrier: the carrier of test mode (a test key never reaches a real one). Everything
 * follows from the label's reference, so the same shipment always gets the same tracking number
 * and ids; its labels are real PDFs marked SPECIMEN. It tracks nothing by itself: a sandbox
 * shipment moves when `POST /v1/shipments/{id}/simulate` feeds it a status, through the same code
 * a carrier's callback takes (simulatedUpdate).
 */
import { createHash } from 'node:crypto';
import type { SpecimenLabel } from '#shared/shipments/label-pdf';
import type { CarrierUpdate, ShipmentStatus } from '#shared/shipments/status';
import type {
  CancelOutcome,
  Carrier,
  CarrierLabel,
  CarrierReturn,
  LabelAddress,
  LabelDetails,
  LabelRequest,
  ReturnRequest,
} from './carrier';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The tracking number of a reference: `SBX` and 12 digits, the same every time. */
export function sandboxTrackingNumber(reference: string): string {
  const number = BigInt(`0x${digest(reference).slice(0, 15)}`) % 10n ** 12n;
  return `SBX${number.toString().padStart(12, '0')}`;
}

export function sandboxLabel(request: Pick<LabelRequest, 'reference' | 'parcels'>): CarrierLabel {
  const hash = digest(request.reference).slice(0, 16);
  const tracking = sandboxTrackingNumber(request.reference);
  return {
    carrier_shipment_id: `sbx_${hash}`,
    parcel_ids: request.parcels.map((_, index) => `sbx_${hash}_${index + 1}`),
    tracking_number: tracking,
    tracking_url: `https://sandbox.print-shop.example/track/${tracking}`,
  };
}

/** Human words of each status, as a carrier would write them. */
const DESCRIPTIONS: Record<ShipmentStatus, string> = {
  label_created: 'Label created',
  in_transit: 'Parcel in transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  exception: 'Delivery exception',
  returned: 'Returned to sender',
  cancelled: 'Cancelled',
};

/**
 * The report a simulation feeds in, as a callback would carry it (keyed by parcel, status and time);
 * `parcel` names the one parcel it is about (absent: every parcel of the shipment).
 */
export function simulatedUpdate(
  parcelId: string,
  status: ShipmentStatus,
  at: Date,
  location: string | null = null,
  parcel?: string,
): CarrierUpdate {
  const occurredAt = at.toISOString();
  return {
    key: `sandbox:${parcelId}:${status}:${occurredAt}`,
    ...(parcel === undefined ? {} : { parcel_id: parcel }),
    status,
    carrier_status: status,
    description: DESCRIPTIONS[status],
    location,
    occurred_at: occurredAt,
  };
}

/** Draws a SPECIMEN label (label-pdf.ts); given only by the routes that store labels, so no other bundle carries the renderer. */
export type SpecimenRenderer = (label: SpecimenLabel) => Promise<Uint8Array>;

export class SandboxCarrier implements Carrier {
  readonly name = 'sandbox' as const;

  constructor(private readonly render?: SpecimenRenderer) {}

  async createLabel(request: LabelRequest): Promise<CarrierLabel> {
    return sandboxLabel(request);
  }

  /** Deterministic: a sandbox label "exists" for every reference it was asked for. */
  async findByReference(_reference: string, request: LabelRequest): Promise<CarrierLabel | undefined> {
    return sandboxLabel(request);
  }

  async getLabel(label: CarrierLabel, parcel: number, details?: LabelDetails): Promise<Uint8Array> {
    if (!this.render) throw new Error('The sandbox draws labels only where a renderer is given (the label routes)');
    const empty: LabelAddress = { name: '—', company: null, line1: '—', line2: null, postal_code: '', city: '', region: null, country: '' };
    return this.render({
      tracking_number: label.tracking_number ?? label.carrier_shipment_id,
      service: details?.service ?? 'sandbox',
      order_number: details?.order_number ?? '',
      parcel: parcel + 1,
      parcels: label.parcel_ids.length,
      to: details?.to ?? empty,
      from: details?.from ?? null,
    });
  }

  async cancel(): Promise<CancelOutcome> {
    return 'cancelled';
  }

  async track(): Promise<CarrierUpdate[]> {
    return [];
  }

  /** Deterministic like its labels: the return's ids and tracking number follow from its reference. */
  async createReturn(request: ReturnRequest): Promise<CarrierReturn> {
    const hash = digest(request.reference).slice(0, 16);
    const tracking = sandboxTrackingNumber(request.reference);
    return {
      carrier_return_id: `sbx_ret_${hash}`,
      parcel_id: `sbx_ret_${hash}_1`,
      tracking_number: tracking,
      tracking_url: `https://sandbox.print-shop.example/track/${tracking}`,
    };
  }
}

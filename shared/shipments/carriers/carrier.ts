/**
 * The carrier interface: what the shipments service asks of any carrier. Two implementations:
 * the sandbox (test mode, always: a test key never reaches a real carrier; sandbox.ts) and
 * Sendcloud's API v3 (sendcloud.ts). Each maps its own statuses to ours with one table.
 */
import type { CarrierUpdate } from '#shared/shipments/status';

export const CARRIERS = ['sandbox', 'sendcloud'] as const;
export type CarrierName = (typeof CARRIERS)[number];

/** Carriers a tenant configures with its own credentials (`PUT /v1/carriers/{carrier}`). */
export const CONFIGURABLE_CARRIERS = ['sendcloud'] as const;
export type ConfigurableCarrier = (typeof CONFIGURABLE_CARRIERS)[number];

export interface ParcelInput {
  weight_g: number;
  length_mm: number;
  width_mm: number;
  height_mm: number;
}

export interface LabelAddress {
  name: string;
  company: string | null;
  line1: string;
  line2: string | null;
  postal_code: string;
  city: string;
  region: string | null;
  country: string;
  email?: string | null;
  phone?: string | null;
}

export interface LabelRequest {
  /**
   * Our idempotency key for this label at the carrier (Sendcloud's `external_reference_id`): the
   * same for every attempt of one shipment, so a label made but not recorded can be found again.
   */
  reference: string;
  service: string;
  order_number: string;
  parcels: ParcelInput[];
  to: LabelAddress;
  /** The sender; null when the carrier account holds it (Sendcloud: the default sender address). */
  from: LabelAddress | null;
}

/** What is printed on a label, for a carrier that draws its own (the sandbox). */
export type LabelDetails = Pick<LabelRequest, 'service' | 'order_number' | 'to' | 'from'>;

/** What a carrier answers for a label it made. */
export interface CarrierLabel {
  carrier_shipment_id: string;
  /** One per parcel, in the request's order. */
  parcel_ids: string[];
  tracking_number: string | null;
  tracking_url: string | null;
}

/** What a carrier says to a cancellation: done, or accepted and carried out later (by callback). */
export type CancelOutcome = 'cancelled' | 'requested';

/** A verified inbound callback: which parcel, and what happened to it. */
export interface InboundUpdate {
  parcel_id: string;
  tracking_number: string | null;
  update: CarrierUpdate;
}

export interface Carrier {
  readonly name: CarrierName;
  createLabel(request: LabelRequest): Promise<CarrierLabel>;
  /** The label made for `reference` earlier, if the carrier has one (recovery after a crash). */
  findByReference(reference: string, request: LabelRequest): Promise<CarrierLabel | undefined>;
  /** The label PDF of one parcel (0-based index); `details` for carriers that draw it themselves (the sandbox). */
  getLabel(label: CarrierLabel, parcel: number, details?: LabelDetails): Promise<Uint8Array>;
  cancel(label: CarrierLabel): Promise<CancelOutcome>;
  /** The carrier's tracking history, normalised (oldest first). */
  track(label: CarrierLabel): Promise<CarrierUpdate[]>;
}

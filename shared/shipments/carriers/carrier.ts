/**
 * The carrier interface: what the shipments service asks of any carrier. Two implementations:
 * the sandbox (test mode, always: a test key never reaches a real carrier; sandbox.ts) and
 * Sendcloud's API v3 (sendcloud.ts). Each maps its own statuses to ours with one table.
 */
import { CarrierError, ConflictError } from '#shared/errors';
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

/** One order line a shipment leaving the EU customs area declares (shared/shipments/customs.ts). */
export interface CustomsItem {
  line_id: number;
  description: string;
  /** Pieces of the line in this shipment. */
  quantity: number;
  /** Value of one piece, minor units of the declaration's currency. */
  unit_value: number;
  hs_code: string;
  origin_country: string;
}

/** What a shipment leaving the EU customs area declares (Sendcloud's `customs_information` and `parcel_items`). */
export interface CustomsDeclaration {
  invoice_number: string;
  export_reason: 'commercial_goods';
  export_type: 'commercial_b2c' | 'commercial_b2b';
  /** ISO 4217, the order's. */
  currency: string;
  items: CustomsItem[];
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
  /** The sender's address; null when the carrier holds the sender (`sender_address_id`) or draws none (the sandbox). */
  from: LabelAddress | null;
  /** Without `from`: the id of a sender address configured at the carrier (Sendcloud's `sender_address_id`). */
  sender_address_id?: number | null;
  /** Outside the EU customs area: the declaration (null or absent inside it). */
  customs?: CustomsDeclaration | null;
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
  /** Each parcel's tracking number, in the order of `parcel_ids` (absent: only the first parcel's is known, `tracking_number`). */
  parcel_tracking_numbers?: (string | null)[];
}

/** A return label: the customer sends the shipment (or part of it) back to the shop. */
export interface ReturnRequest {
  /** Our reference for the return at the carrier (Sendcloud's `external_reference`): the shipment's, with `:return`. */
  reference: string;
  /** The carrier's return shipping option (Sendcloud's `shipping_option_code`, e.g. `dpd:return/return`). */
  service: string;
  order_number: string;
  parcel: ParcelInput;
  /** The customer: where the shipment went. */
  from: LabelAddress;
  /** The shop: where it comes back to. */
  to: LabelAddress;
  /** From outside the EU customs area: what comes back (null inside it). */
  customs: CustomsDeclaration | null;
}

/** What a carrier answers for a return it made. */
export interface CarrierReturn {
  carrier_return_id: string;
  parcel_id: string;
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

/**
 * The carrier may have made the label, and we could not learn whether (no answer in time, a 5xx,
 * and no lookup by reference before the deadline): 502, and the shipment's reservation is kept so
 * that the next attempt finds the label by its reference instead of making another.
 */
export class CarrierOutcomeUnknown extends CarrierError {
  constructor(message: string, carrierStatus?: number) {
    super('carrier_error', message, undefined, carrierStatus);
    this.name = 'CarrierOutcomeUnknown';
  }
}

/**
 * The carrier holds a shipment under our reference that is no label to record — cancelled, or its
 * announcement failed — and makes no other under that reference: 409. Nothing live exists for it,
 * so its reservation is removed.
 */
export class CarrierReferenceSpent extends ConflictError {
  constructor(reference: string, why: string) {
    super(`The carrier holds a shipment for reference ${reference} that is ${why}; it makes no other label under that reference`);
    this.name = 'CarrierReferenceSpent';
  }
}

export interface Carrier {
  readonly name: CarrierName;
  /**
   * A label for `request.reference`: made now, or the one the carrier made for that reference before.
   * Throws CarrierOutcomeUnknown when it cannot know whether the carrier made one, CarrierReferenceSpent
   * when the reference names a cancelled or failed shipment; any other error means nothing was made.
   */
  createLabel(request: LabelRequest): Promise<CarrierLabel>;
  /**
   * The label made for `reference` earlier, if the carrier has one to record: a shipment of exactly
   * that reference whose parcels are not cancelled (recovery after a crash or an unanswered call).
   */
  findByReference(reference: string, request: LabelRequest): Promise<CarrierLabel | undefined>;
  /** The label PDF of one parcel (0-based index); `details` for carriers that draw it themselves (the sandbox). */
  getLabel(label: CarrierLabel, parcel: number, details?: LabelDetails): Promise<Uint8Array>;
  cancel(label: CarrierLabel): Promise<CancelOutcome>;
  /** The carrier's tracking history, normalised (oldest first). */
  track(label: CarrierLabel): Promise<CarrierUpdate[]>;
  /** A return label for a shipment: the customer sends it back; tracked like a label (`track` with its parcel). */
  createReturn(request: ReturnRequest): Promise<CarrierReturn>;
}

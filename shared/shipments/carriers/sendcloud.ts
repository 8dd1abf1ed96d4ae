/**
 * The Sendcloud API v3 adapter (one contract for DHL, DPD, GLS, Hermes, UPS, PostNL…), written
 * against Sendcloud's documentation, with node's fetch:
 *
 * - HTTP Basic with the tenant's public key (user) and secret key (password);
 * - label: `POST /shipments/announce` (synchronous; at most 15 parcels), then the PDF of each
 *   parcel with `GET /parcels/{id}/documents/label` and `Accept: application/pdf`; the announce
 *   always names a sender (`from_address`: an address, or `{ sender_address_id }`), and a shipment
 *   leaving the EU customs area carries `customs_information` and every parcel's `parcel_items`
 *   (from the declaration the shipments service made, customs.ts) — the tests' fake holds every
 *   request to JSON Schemas of the v3 contract (test/support/sendcloud-contract.ts);
 * - a 201 whose parcel says `ANNOUNCEMENT_FAILED` (or whose `data.errors` is not empty) is a
 *   failure (502 `carrier_error` with Sendcloud's message), never a label;
 * - cancel: `POST /shipments/{id}/cancel` — 200 cancelled, 202 queued (carried out later; the
 *   callback says when), 404 and 409 refusals passed on as 409 with Sendcloud's reason;
 * - tracking: `GET /parcels/tracking/{tracking number}`, whose errors have another shape (`{"detail"}`);
 * - 429 and 5xx are retried with backoff (honouring Retry-After) within a deadline that ends well
 *   inside the function's timeout; each call has its own timeout. An announce is not repeated
 *   blindly after a 5xx or a timeout (the label may exist): the label is first looked up by our
 *   reference (`external_reference_id`, within the announce's deadline), and only announced again if
 *   Sendcloud shows none — and announcing again is safe: the reference is unique per Sendcloud user,
 *   so a second announce is answered 409 with the shipment the first one made, which is adopted.
 * - a shipment is adopted (from a lookup or a 409) only when its `external_reference_id` is exactly
 *   ours and none of its parcels is cancelled (or being cancelled) or failed; a cancelled or failed
 *   one under our reference is CarrierReferenceSpent (nothing live exists for it);
 * - an announce whose outcome it cannot learn before the deadline — a timeout or a 5xx, and no
 *   lookup that settled it — is CarrierOutcomeUnknown (502): the label may exist, and the caller
 *   keeps the reservation for the next attempt to find it. 429s only: nothing was made.
 */
import { retry } from '#shared/async/retry';
import { CarrierError, ConflictError, type ErrorDetail } from '#shared/errors';
import { formatMinor } from '#shared/money';
import { parcelContents } from '#shared/shipments/customs';
import type { CarrierUpdate } from '#shared/shipments/status';
import { needsCustoms } from './customs-area';
import { CANCELLING_CODES, CANCELLING_IDS, statusOfCode, statusOfId, statusOfTrackingEvent } from './sendcloud-status';
import {
  CarrierOutcomeUnknown,
  CarrierReferenceSpent,
  type CancelOutcome,
  type Carrier,
  type CarrierLabel,
  type CarrierReturn,
  type LabelAddress,
  type LabelRequest,
  type ReturnRequest,
} from './carrier';

export const SENDCLOUD_BASE_URL = 'https://panel.sendcloud.sc/api/v3';
/** Sendcloud's synchronous announce takes at most this many parcels per shipment. */
export const SENDCLOUD_MAX_PARCELS = 15;

export interface SendcloudOptions {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  /** Every call of one operation (retries included) ends within this (default 20 s: routes calling it have 29 s). */
  deadlineMs?: number;
  /** One HTTP request's timeout (default 8 s). */
  requestTimeoutMs?: number;
  /** First pause between attempts (doubles each time, jittered; default 250 ms). */
  backoffMs?: number;
}

interface Answer {
  status: number;
  headers: Headers;
  json?: unknown;
  bytes?: Uint8Array;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the carrier's JSON, read defensively field by field
type Json = Record<string, any>;

/** A failure worth another attempt: rate limited, a 5xx, or no answer (network error, timeout). */
class Retryable extends Error {
  constructor(
    readonly reason: string,
    readonly waitMs: number | undefined,
    readonly answer?: Answer,
    /** Sendcloud may have carried the request out (no answer, or a 5xx); false for a 429 and for a request never sent. */
    readonly mayHaveActed = false,
  ) {
    super(reason);
  }
}

interface CallOptions {
  body?: unknown;
  accept?: string;
  /** The operation's deadline, when it is part of a larger one (a lookup inside an announce); default: a new one. */
  deadline?: number;
  /** Before each retry: may settle the operation otherwise (an announce: the label found by reference). */
  beforeRetry?: (failure: Retryable) => Promise<Answer | undefined>;
  /** After each failed attempt. */
  onFailure?: (failure: Retryable) => void;
}

/** Messages of an `errors` object (`{"to_address": ["This field is required."]}`, `{"detail": "…"}`), each with its field path. */
function objectErrors(errors: Json, path: string[] = []): ErrorDetail[] {
  return Object.entries(errors).flatMap(([key, value]): ErrorDetail[] => {
    const at = [...path, key];
    const field = at.join('.');
    if (typeof value === 'string')
      return [{ field: key === 'detail' || key === 'message' ? path.join('.') || 'carrier' : field, message: value }];
    if (Array.isArray(value)) {
      return value.flatMap((entry): ErrorDetail[] =>
        typeof entry === 'string' ? [{ field, message: entry }] : entry && typeof entry === 'object' ? objectErrors(entry as Json, at) : [],
      );
    }
    return value && typeof value === 'object' ? objectErrors(value as Json, at) : [];
  });
}

/**
 * Sendcloud's error message(s) from every error shape it answers: JSON:API `errors` (a list), an
 * `errors` object (field → messages), or the tracking endpoint's `detail` (a string, or a list of
 * `{loc, msg}`). A message is never lost to its shape.
 */
export function sendcloudErrorDetails(body: unknown): { message: string; details: ErrorDetail[] } {
  const value = body as Json | undefined;
  if (value && value.errors && typeof value.errors === 'object' && !Array.isArray(value.errors)) {
    const details = objectErrors(value.errors as Json);
    if (details.length) return { message: details.map((detail) => detail.message).join('; '), details };
  }
  if (value && typeof value.errors === 'string' && value.errors) return { message: value.errors, details: [] };
  if (value && Array.isArray(value.errors) && value.errors.length) {
    const details = value.errors.map((error: Json) => ({
      field: String(error?.source?.pointer ?? error?.code ?? 'carrier'),
      message: String(error?.detail ?? error?.title ?? error?.code ?? 'error'),
    }));
    return { message: details.map((detail: ErrorDetail) => detail.message).join('; '), details };
  }
  if (value && typeof value.detail === 'string') return { message: value.detail, details: [] };
  if (value && Array.isArray(value.detail)) {
    // FastAPI's HTTPValidationError: [{ loc: [...], msg, type }]
    const details = value.detail.map((error: Json) => ({
      field: Array.isArray(error?.loc) ? error.loc.join('.') : 'carrier',
      message: String(error?.msg ?? 'invalid'),
    }));
    return { message: details.map((detail: ErrorDetail) => detail.message).join('; '), details };
  }
  return { message: 'no details given', details: [] };
}

const retryAfterMs = (headers: Headers): number | undefined => {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
};

/** Decimal strings as Sendcloud's money and measures are written. */
const cm = (mm: number) => (mm / 10).toFixed(2);
const kg = (grams: number) => (grams / 1000).toFixed(3);

/**
 * The address's region as Sendcloud's `state_province_code` takes it — "ISO 3166-2" (the shipments
 * description, schema `address`) — or undefined: `<country>-<1 to 3 letters or digits>` of the
 * address's own country as given, or a bare subdivision part (`NY`) prefixed with the country. A
 * region written out (`Bavaria`) or of another country is left out rather than sent malformed.
 */
export function stateProvinceCode(region: string | null | undefined, country: string): string | undefined {
  const value = region?.trim().toUpperCase();
  if (!value) return undefined;
  const code = country.trim().toUpperCase();
  const full = /^([A-Z]{2})-([A-Z0-9]{1,3})$/.exec(value);
  if (full) return full[1] === code ? value : undefined;
  return /^[A-Z0-9]{1,3}$/.test(value) ? `${code}-${value}` : undefined;
}

function addressOf(address: LabelAddress): Json {
  const state = stateProvinceCode(address.region, address.country);
  return {
    name: address.name,
    ...(address.company ? { company_name: address.company } : {}),
    address_line_1: address.line1,
    ...(address.line2 ? { address_line_2: address.line2 } : {}),
    postal_code: address.postal_code,
    city: address.city,
    country_code: address.country,
    ...(state ? { state_province_code: state } : {}),
    ...(address.email ? { email: address.email } : {}),
    ...(address.phone ? { phone_number: address.phone } : {}),
  };
}

/**
 * The sender as v3 takes it: `from_address` is required, either a whole address or
 * `{ sender_address_id }` naming one configured in Sendcloud's panel. Callers refuse a shipment
 * without either before it gets here (creation.ts); this refuses it too rather than send what
 * Sendcloud answers 400.
 */
function fromAddressOf(request: LabelRequest): Json {
  if (request.from) return addressOf(request.from);
  if (request.sender_address_id) return { sender_address_id: request.sender_address_id };
  throw new CarrierError('validation_failed', 'Sendcloud needs a sender: a sender address or a Sendcloud sender address id', [
    { field: 'sender_address', message: 'no sender address is configured' },
  ]);
}

/**
 * Sendcloud needs customs information and the parcels' items to announce a shipment leaving the EU
 * customs area; the shipments service declares them (customs.ts). A request without the declaration
 * is refused here (422) rather than sent for Sendcloud to refuse.
 */
function assertDeclared(request: LabelRequest): void {
  if (!needsCustoms(request.to.country) || request.customs) return;
  throw new CarrierError(
    'validation_failed',
    `Shipping to ${request.to.country} leaves the EU customs area: Sendcloud needs the shipment's customs information and parcel items`,
    [{ field: 'address_id', message: `${request.to.country} is outside the EU customs area` }],
  );
}

/**
 * `customs_information` and each parcel's `parcel_items` for a declaration, as Sendcloud's published
 * v3 OpenAPI description (shipments, Apache 2.0) shapes them: schema `customs-information`
 * (`invoice_number` ≤ 40 characters, `export_reason`, `export_type`) and `parcel-item` (`description`
 * ≤ 255, `quantity`, `weight` as a number with its unit, `price` as a decimal string with its
 * currency, `hs_code`, `origin_country`; `item_id` our line id). The description does not say
 * whether an item's weight and price are per piece or for the quantity; they are sent per piece, as
 * Sendcloud's v2 parcel items define them ("weight of a single item", "value of a single item").
 */
export function customsParts(request: LabelRequest): { customs_information: Json; parcel_items: Json[][] } | undefined {
  const customs = request.customs;
  if (!customs || !needsCustoms(request.to.country)) return undefined;
  const contents = parcelContents(customs.items, request.parcels);
  return {
    customs_information: {
      invoice_number: customs.invoice_number,
      export_reason: customs.export_reason,
      export_type: customs.export_type,
    },
    parcel_items: contents.map((content) =>
      content.map(({ item, quantity, piece_weight_g }) => ({
        item_id: String(item.line_id),
        description: item.description,
        quantity,
        // Grams with 3 decimals: a flyer's piece weighs a fraction of a gram; never 0 (exclusiveMinimum).
        weight: { value: Math.max(0.001, Math.round(piece_weight_g * 1000) / 1000), unit: 'g' },
        price: { value: formatMinor(item.unit_value), currency: customs.currency },
        hs_code: item.hs_code,
        origin_country: item.origin_country,
      })),
    ),
  };
}

/** The body of `POST /shipments/announce` for a label request. */
export function announceBody(request: LabelRequest): Json {
  assertDeclared(request);
  const customs = customsParts(request);
  return {
    label_details: { mime_type: 'application/pdf', dpi: 72 },
    to_address: addressOf(request.to),
    from_address: fromAddressOf(request),
    ship_with: { type: 'shipping_option_code', properties: { shipping_option_code: request.service } },
    order_number: request.order_number,
    external_reference_id: request.reference,
    parcels: request.parcels.map((parcel, index) => ({
      dimensions: { length: cm(parcel.length_mm), width: cm(parcel.width_mm), height: cm(parcel.height_mm), unit: 'cm' },
      weight: { value: kg(parcel.weight_g), unit: 'kg' },
      ...(customs ? { parcel_items: customs.parcel_items[index] } : {}),
    })),
    ...(customs ? { customs_information: customs.customs_information } : {}),
  };
}

/**
 * The body of `POST /returns/announce-synchronously` (Sendcloud's published v3 OpenAPI description,
 * returns, Apache 2.0: request body `CreateReturn`): `from_address` the customer and `to_address`
 * the shop (both whole addresses: `address-with-required-fields`), `ship_with` a return shipping
 * option code, `weight` and `dimensions` as numbers with their units, our `external_reference`, the
 * order number; from outside the EU customs area `parcel_items` ("required outside EU": each with
 * its HS code, origin, weight and price as numbers) and `customs_invoice_nr`.
 */
export function returnBody(request: ReturnRequest): Json {
  const { parcel, customs } = request;
  return {
    from_address: addressOf(request.from),
    to_address: addressOf(request.to),
    ship_with: { type: 'shipping_option_code', shipping_option_code: request.service },
    dimensions: { length: parcel.length_mm / 10, width: parcel.width_mm / 10, height: parcel.height_mm / 10, unit: 'cm' },
    weight: { value: parcel.weight_g / 1000, unit: 'kg' },
    order_number: request.order_number,
    external_reference: request.reference,
    ...(customs && needsCustoms(request.from.country)
      ? {
          customs_invoice_nr: customs.invoice_number,
          parcel_items: customs.items.map((item) => ({
            item_id: String(item.line_id),
            description: item.description,
            quantity: item.quantity,
            weight: {
              value: Math.max(
                0.001,
                Math.round((parcel.weight_g / customs.items.reduce((sum, entry) => sum + entry.quantity, 0)) * 1000) / 1000,
              ),
              unit: 'g',
            },
            price: { value: item.unit_value / 100, currency: customs.currency },
            hs_code: item.hs_code,
            origin_country: item.origin_country,
          })),
        }
      : {}),
  };
}

/** The label of a shipment answer (`data` of announce or of a shipments list), or the failure it reports. */
export function labelOfShipment(data: Json): CarrierLabel {
  const parcels: Json[] = Array.isArray(data?.parcels) ? data.parcels : [];
  const errors: Json[] = Array.isArray(data?.errors) ? data.errors : [];
  const failed = parcels.find((parcel) => String(parcel?.status?.code ?? '').toUpperCase() === 'ANNOUNCEMENT_FAILED');
  if (failed || errors.length || parcels.length === 0) {
    const { message, details } = errors.length ? sendcloudErrorDetails({ errors }) : { message: '', details: [] };
    const why = message || failed?.status?.message || 'no parcel in the answer';
    throw new CarrierError('carrier_error', `Sendcloud could not announce the shipment: ${why}`, details);
  }
  const first = parcels[0]!;
  return {
    carrier_shipment_id: String(data.id),
    parcel_ids: parcels.map((parcel) => String(parcel.id)),
    tracking_number: first.tracking_number ? String(first.tracking_number) : null,
    tracking_url: first.tracking_url ? String(first.tracking_url) : null,
    parcel_tracking_numbers: parcels.map((parcel) => (parcel.tracking_number ? String(parcel.tracking_number) : null)),
  };
}

/** Network errors of a request that never left: no connection was made. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a parcel Sendcloud answered is cancelled or being cancelled, by the status table
 * (sendcloud-status.ts): its v3 `status.code`, or a numeric `status.id` as callbacks give it.
 */
function cancelledParcel(parcel: Json): boolean {
  const code = String(parcel?.status?.code ?? '').toLowerCase();
  const id = Number(parcel?.status?.id);
  return (
    statusOfCode(code) === 'cancelled' ||
    CANCELLING_CODES.has(code) ||
    (Number.isInteger(id) && (statusOfId(id) === 'cancelled' || CANCELLING_IDS.has(id)))
  );
}

/**
 * Whether a shipment Sendcloud answered (a lookup's or a 409's) is the label made for `reference`:
 * `label` when its reference is exactly ours and its parcels are live; `spent` (why) when it is ours
 * but cancelled or failed; `foreign` when it is not ours (another reference, or none).
 */
export function judgeShipment(shipment: Json, reference: string): { label: CarrierLabel } | { spent: string } | { foreign: true } {
  if (!shipment || typeof shipment !== 'object' || shipment.external_reference_id !== reference) return { foreign: true };
  const parcels: Json[] = Array.isArray(shipment.parcels) ? shipment.parcels : [];
  if (parcels.some(cancelledParcel)) return { spent: 'cancelled' };
  try {
    return { label: labelOfShipment(shipment) };
  } catch {
    return { spent: 'without a label (its announcement failed)' };
  }
}

/**
 * The tracking endpoint's events (schema `parcel-tracking-response`, its `events` of
 * `parcel-event-response`), normalised, oldest first: the status from `status_code` and
 * `sub_status_code` through the one table (sendcloud-status.ts) — `status_type` is a severity
 * ("success"), never a status. With `parcelId` (a shipment of several parcels) each update names
 * its parcel, and its key does too.
 */
export function updatesOfTracking(body: Json, parcelId?: string): CarrierUpdate[] {
  const events: Json[] = Array.isArray(body?.events) ? body.events : [];
  return events
    .filter((event) => typeof event?.event_at === 'string' && !Number.isNaN(Date.parse(event.event_at)))
    .map((event) => {
      const code = typeof event.status_code === 'string' ? event.status_code : '';
      const sub = typeof event.sub_status_code === 'string' && event.sub_status_code.toLowerCase() !== 'none' ? event.sub_status_code : '';
      const carrierStatus = [code, sub].filter(Boolean).join('/');
      return {
        key: `sendcloud:track:${parcelId ? `${parcelId}:` : ''}${carrierStatus}:${event.event_at}`,
        ...(parcelId ? { parcel_id: parcelId } : {}),
        status: statusOfTrackingEvent(code, sub),
        carrier_status: carrierStatus || null,
        description: String(event.status_description || carrierStatus || 'Tracking event'),
        location: typeof event.location === 'string' ? event.location : null,
        occurred_at: new Date(event.event_at).toISOString(),
      };
    })
    .sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
}

export class SendcloudCarrier implements Carrier {
  readonly name = 'sendcloud' as const;
  private readonly authorization: string;
  private readonly baseUrl: string;

  constructor(private readonly options: SendcloudOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.publicKey}:${options.secretKey}`).toString('base64')}`;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  private deadline(): number {
    return Date.now() + (this.options.deadlineMs ?? 20_000);
  }

  /** One HTTP request; a 429, a 5xx or no answer becomes Retryable. */
  private async send(method: string, path: string, deadline: number, init: { body?: unknown; accept?: string } = {}): Promise<Answer> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new Retryable('the deadline passed', undefined);
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          Authorization: this.authorization,
          Accept: init.accept ?? 'application/json',
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(Math.min(this.options.requestTimeoutMs ?? 8000, remaining)),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      // No connection at all: the request never reached Sendcloud. Anything else (a timeout, a reset): it may have.
      const unsent = NOT_SENT.has(String(((error as Error).cause as { code?: unknown } | undefined)?.code));
      throw new Retryable(
        timedOut ? 'Sendcloud did not answer in time' : `Sendcloud could not be reached (${(error as Error).message})`,
        undefined,
        undefined,
        !unsent,
      );
    }
    const answer: Answer = { status: response.status, headers: response.headers };
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('json')) answer.json = await response.json().catch(() => undefined);
    else answer.bytes = new Uint8Array(await response.arrayBuffer());
    if (response.status === 429) throw new Retryable('Sendcloud rate limit reached (429)', retryAfterMs(response.headers), answer);
    if (response.status >= 500) throw new Retryable(`Sendcloud answered ${response.status}`, retryAfterMs(response.headers), answer, true);
    return answer;
  }

  /**
   * `send` again after each Retryable failure, pausing (backoff or Retry-After), until the deadline;
   * `beforeRetry` may settle the operation otherwise first (an announce: the label found by reference).
   */
  private async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    let lastFailure: Retryable | undefined;
    const deadline = options.deadline ?? this.deadline();
    const init = { body: options.body, accept: options.accept };
    // The one retry loop (shared/async/retry.ts), bounded by the deadline rather than a count.
    return retry(
      async (attempt) => {
        if (attempt > 1 && options.beforeRetry && lastFailure) {
          const settled = await options.beforeRetry(lastFailure);
          if (settled) return settled;
        }
        try {
          return await this.send(method, path, deadline, init);
        } catch (error) {
          if (error instanceof Retryable) {
            lastFailure = error;
            options.onFailure?.(error);
          }
          throw error;
        }
      },
      {
        isRetryable: (error) => error instanceof Retryable,
        maxAttempts: Number.POSITIVE_INFINITY,
        pauseMs: this.options.backoffMs ?? 250,
        maxPauseMs: Number.POSITIVE_INFINITY,
        pause: (error, _attempt, backoff) => {
          const wait = (error as Retryable).waitMs ?? backoff;
          return Date.now() + wait >= deadline - 50 ? 'stop' : wait;
        },
        exhausted: (error, attempt) => {
          const failure = error as Retryable;
          const what = failure.answer?.json ? `: ${sendcloudErrorDetails(failure.answer.json).message}` : '';
          return new CarrierError('carrier_error', `${failure.reason}${what}; tried ${attempt} times`, undefined, failure.answer?.status);
        },
      },
    );
  }

  /** A 4xx answer as our error: 401/403 our credentials, 400/422 its validation, 404/409 refusals (409 with its reason). */
  private refusal(answer: Answer, what: string): Error {
    const { message, details } = sendcloudErrorDetails(answer.json);
    if (answer.status === 401 || answer.status === 403) {
      return new CarrierError(
        'validation_failed',
        `Sendcloud refused the credentials configured for this account (${answer.status}): ${message}`,
        undefined,
        answer.status,
      );
    }
    if (answer.status === 404 || answer.status === 409) return new ConflictError(`Sendcloud refused ${what}: ${message}`);
    return new CarrierError('validation_failed', `Sendcloud refused ${what}: ${message}`, details, answer.status);
  }

  async createLabel(request: LabelRequest): Promise<CarrierLabel> {
    if (request.parcels.length > SENDCLOUD_MAX_PARCELS) {
      throw new CarrierError('validation_failed', `Sendcloud announces at most ${SENDCLOUD_MAX_PARCELS} parcels per shipment`, [
        { field: 'parcels', message: `at most ${SENDCLOUD_MAX_PARCELS}` },
      ]);
    }
    const body = announceBody(request);
    const deadline = this.deadline();
    let uncertain = false;
    let found: CarrierLabel | undefined;
    let answer: Answer;
    try {
      answer = await this.call('POST', '/shipments/announce', {
        body,
        deadline,
        onFailure: (failure) => {
          uncertain ||= failure.mayHaveActed;
        },
        beforeRetry: async (failure) => {
          // Rate limited: nothing was made. A 5xx or no answer: the label may exist — look before announcing again.
          if (!failure.mayHaveActed) return undefined;
          found = await this.lookup(request.reference, deadline).catch(() => undefined);
          return found ? { status: 201, headers: new Headers() } : undefined;
        },
      });
    } catch (error) {
      if (uncertain && error instanceof CarrierError && !(error instanceof CarrierOutcomeUnknown)) {
        throw new CarrierOutcomeUnknown(`${error.message}; Sendcloud may have made the label`, error.carrierStatus);
      }
      throw error;
    }
    if (found) return found;
    if (answer.status === 409) return this.adoptDuplicate(request.reference, answer, deadline);
    if (answer.status !== 200 && answer.status !== 201) throw this.refusal(answer, 'the shipment');
    return labelOfShipment((answer.json as Json)?.data);
  }

  /**
   * A 409 to an announce: the reference was used before, and Sendcloud answers the shipment that
   * holds it — adopted when it is ours and live, CarrierReferenceSpent when it is ours but cancelled
   * or failed. Without such a shipment in the answer it is looked up; when even that shows none, the
   * shipment exists where we cannot see it: CarrierOutcomeUnknown.
   */
  private async adoptDuplicate(reference: string, answer: Answer, deadline: number): Promise<CarrierLabel> {
    const data = (answer.json as Json | undefined)?.data;
    const candidates: Json[] = [...(data && typeof data === 'object' && !Array.isArray(data) ? [data] : [])];
    if (!candidates.some((candidate) => !('foreign' in judgeShipment(candidate, reference)))) {
      candidates.push(...(await this.list(reference, deadline)));
    }
    for (const candidate of candidates) {
      const verdict = judgeShipment(candidate, reference);
      if ('label' in verdict) return verdict.label;
      if ('spent' in verdict) throw new CarrierReferenceSpent(reference, verdict.spent);
    }
    const { message } = sendcloudErrorDetails(answer.json);
    throw new CarrierOutcomeUnknown(`Sendcloud answered 409 for reference ${reference} (${message}) but shows no shipment of it`, 409);
  }

  /** The shipments Sendcloud lists for `reference` (as it answers them: ours or not). */
  private async list(reference: string, deadline?: number): Promise<Json[]> {
    const answer = await this.call('GET', `/shipments?external_reference_id=${encodeURIComponent(reference)}`, { deadline });
    if (answer.status === 404) return [];
    if (answer.status !== 200) throw this.refusal(answer, 'the shipment lookup');
    const data = (answer.json as Json)?.data;
    return Array.isArray(data) ? data : data ? [data] : [];
  }

  /** The label made for `reference`, if Sendcloud lists a live shipment of exactly that reference. */
  private async lookup(reference: string, deadline?: number): Promise<CarrierLabel | undefined> {
    for (const shipment of await this.list(reference, deadline)) {
      const verdict = judgeShipment(shipment, reference);
      if ('label' in verdict) return verdict.label;
    }
    return undefined;
  }

  async findByReference(reference: string): Promise<CarrierLabel | undefined> {
    return this.lookup(reference);
  }

  async getLabel(label: CarrierLabel, parcel: number): Promise<Uint8Array> {
    const parcelId = label.parcel_ids[parcel];
    if (parcelId === undefined) throw new CarrierError('validation_failed', `The shipment has no parcel ${parcel + 1}`);
    const answer = await this.call('GET', `/parcels/${encodeURIComponent(parcelId)}/documents/label`, { accept: 'application/pdf' });
    if (answer.status !== 200 || !answer.bytes) {
      const { message } = sendcloudErrorDetails(answer.json);
      throw new CarrierError('carrier_error', `Sendcloud did not give the label of parcel ${parcelId} (${answer.status}): ${message}`);
    }
    return answer.bytes;
  }

  async cancel(label: CarrierLabel): Promise<CancelOutcome> {
    const answer = await this.call('POST', `/shipments/${encodeURIComponent(label.carrier_shipment_id)}/cancel`);
    if (answer.status === 200) return 'cancelled';
    if (answer.status === 202) return 'requested';
    throw this.refusal(answer, 'the cancellation');
  }

  /**
   * A return: `POST /returns/announce-synchronously` (201 `{ return_id, parcel_id }`), then the return
   * itself (`GET /returns/{id}`, schema `Return`) for its tracking number and URL — best effort: a
   * return whose tracking is not known yet is recorded without it, and its callbacks carry it later.
   */
  async createReturn(request: ReturnRequest): Promise<CarrierReturn> {
    const answer = await this.call('POST', '/returns/announce-synchronously', { body: returnBody(request) });
    if (answer.status !== 200 && answer.status !== 201) throw this.refusal(answer, 'the return');
    const created = answer.json as Json | undefined;
    if (!created || created.return_id === undefined || created.parcel_id === undefined) {
      throw new CarrierError('carrier_error', `Sendcloud answered the return without its ids: ${sendcloudErrorDetails(created).message}`);
    }
    let details: Json | undefined;
    try {
      const read = await this.call('GET', `/returns/${encodeURIComponent(String(created.return_id))}`);
      details = read.status === 200 ? (read.json as Json) : undefined;
    } catch (error) {
      if (!(error instanceof CarrierError)) throw error;
    }
    const data = (details?.data ?? details) as Json | undefined;
    return {
      carrier_return_id: String(created.return_id),
      parcel_id: String(created.parcel_id),
      tracking_number: data?.tracking_number ? String(data.tracking_number) : null,
      tracking_url: data?.tracking_url ? String(data.tracking_url) : null,
    };
  }

  /**
   * Every parcel's tracking (`GET /parcels/tracking/{tracking_number}`, once per tracking number): a
   * shipment of several parcels is followed parcel by parcel, each update naming its parcel.
   */
  async track(label: CarrierLabel): Promise<CarrierUpdate[]> {
    const numbers = label.parcel_ids.map(
      (_, index) => label.parcel_tracking_numbers?.[index] ?? (index === 0 ? label.tracking_number : null),
    );
    const several = label.parcel_ids.length > 1;
    const answers = new Map<string, Json | undefined>();
    const deadline = this.deadline();
    for (const number of new Set(numbers.filter((number): number is string => Boolean(number)))) {
      const answer = await this.call('GET', `/parcels/tracking/${encodeURIComponent(number)}`, { deadline });
      if (answer.status === 404) answers.set(number, undefined);
      else if (answer.status !== 200) throw this.refusal(answer, 'the tracking request');
      else answers.set(number, answer.json as Json);
    }
    return label.parcel_ids
      .flatMap((parcelId, index) => {
        const body = numbers[index] ? answers.get(numbers[index]!) : undefined;
        return body ? updatesOfTracking(body, several ? parcelId : undefined) : [];
      })
      .sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  }
}

/**
 * Sendcloud's integration webhook, read: `parcel_status_changed` calls (still in the v2 parcel shape,
 * with a numeric `parcel.status.id`) become normalised updates of one parcel. Other actions
 * (`integration_updated`, `return_created`…) carry nothing for shipments and are acknowledged.
 * Pure: the signature is checked before (sendcloud-signature.ts), over the raw body.
 */
import type { InboundUpdate } from './carrier';
import { nameOfId, statusOfId } from './sendcloud-status';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the carrier's JSON, read defensively field by field
type Json = Record<string, any>;

/** A millisecond (or second) Unix time as ISO, or undefined. */
function isoOf(value: unknown): string | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) return undefined;
  const ms = number < 1e11 ? number * 1000 : number;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * The update a callback body carries, or undefined when it carries none (another action, no
 * parcel). Ordered by the payload's `timestamp` (when Sendcloud saw the change); the key
 * (parcel, status id, timestamp) makes a repeated call the same report.
 */
export function parseSendcloudCallback(body: unknown): InboundUpdate | undefined {
  const value = body as Json | undefined;
  if (!value || value.action !== 'parcel_status_changed') return undefined;
  const parcel = value.parcel as Json | undefined;
  const statusId = Number(parcel?.status?.id);
  const occurredAt = isoOf(value.timestamp) ?? isoOf(value.carrier_status_change_timestamp);
  if (!parcel || parcel.id === undefined || parcel.id === null || !Number.isInteger(statusId) || !occurredAt) return undefined;
  const message =
    typeof parcel.status?.message === 'string' && parcel.status.message
      ? parcel.status.message
      : (nameOfId(statusId) ?? `Sendcloud status ${statusId}`);
  return {
    parcel_id: String(parcel.id),
    tracking_number: parcel.tracking_number ? String(parcel.tracking_number) : null,
    update: {
      key: `sendcloud:${parcel.id}:${statusId}:${occurredAt}`,
      parcel_id: String(parcel.id),
      status: statusOfId(statusId),
      carrier_status: String(statusId),
      description: message,
      location: null,
      occurred_at: occurredAt,
    },
  };
}

/**
 * The delivery body and headers of DESIGN.md §6. The body depends only on the delivery and its
 * event, so every attempt sends the same bytes; the headers carry the attempt number and the
 * attempt's time, and the signatures over those exact bytes.
 */
import type { Mode } from '#shared/auth/keys';
import { signatureHeaders } from './signing';

export const USER_AGENT = 'PrintShopAPI-Webhooks/1.0';

export interface PayloadInput {
  deliveryId: string;
  eventId: string;
  kind: string;
  /** The event's creation time (ISO): stable across retries, so receivers can sort on it. */
  createdAt: string;
  mode: Mode;
  test: boolean;
  data: Record<string, unknown>;
}

/** The JSON body, keys in the documented order; `test: true` only on test deliveries. */
export function buildPayload(input: PayloadInput): string {
  return JSON.stringify({
    id: input.deliveryId,
    event_id: input.eventId,
    event: input.kind,
    timestamp: input.createdAt,
    mode: input.mode,
    ...(input.test ? { test: true } : {}),
    data: input.data,
  });
}

export interface HeaderInput {
  deliveryId: string;
  kind: string;
  attempt: number;
  /** Unix seconds of this attempt (also signed, so receivers can refuse stale replays). */
  timestamp: number;
  body: string;
  secrets: string[];
}

export function deliveryHeaders(input: HeaderInput): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Webhook-Id': input.deliveryId,
    'X-Webhook-Event': input.kind,
    'X-Webhook-Timestamp': String(input.timestamp),
    'X-Webhook-Attempt': String(input.attempt),
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(input.timestamp),
    ...signatureHeaders(input.secrets, input.deliveryId, input.timestamp, input.body),
  };
}

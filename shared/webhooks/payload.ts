/**
 * The delivery body and headers (docs/webhooks.md). The body depends only on the delivery and its
 * event, so every attempt sends the same bytes; the headers carry the attempt number and the
 * attempt's time, and the signatures over those exact bytes.
 */
import type { StoredEvent } from '#shared/events/stored-event';
import { signatureHeaders } from './signing';

export const USER_AGENT = 'PrintShopAPI-Webhooks/1.0';

/**
 * The JSON body of delivery `deliveryId` of `event`, keys in the documented order; `timestamp` is
 * the event's creation time (stable across retries, so receivers can sort on it); `test: true`
 * only on test deliveries.
 */
export function buildPayload(deliveryId: string, event: StoredEvent): string {
  return JSON.stringify({
    id: deliveryId,
    event_id: event.event_id,
    event: event.kind,
    timestamp: event.created_at,
    mode: event.tenant.mode,
    ...(event.test ? { test: true } : {}),
    data: event.data,
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

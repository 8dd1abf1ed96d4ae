/**
 * Verifying a webhook delivery, exactly as the service signs it (docs/webhooks.md, "Signatures"):
 *
 * - `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the raw body, keyed with the whole secret
 *   string (`whsec_…`);
 * - `webhook-signature` (Standard Webhooks): `v1,` + base64 HMAC-SHA256 of
 *   `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part after `whsec_`.
 *
 * Both must match (each in constant time; after a rotation a header lists two signatures, and
 * either may match), `webhook-timestamp` must be within the tolerance of now (a captured delivery
 * cannot be replayed later), and the body's `id` must be the signed `webhook-id`. Only then is the
 * body parsed and returned as the typed event.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './generated/types.gen';

export type { WebhookEvent };

const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks' usual tolerance: five minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookRefusal = 'missing_headers' | 'stale_timestamp' | 'signature_mismatch' | 'malformed_body';

/** A delivery that must not be trusted; answer it with 401 (the service retries it). */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** The request's headers: a fetch `Headers`, or Node's `IncomingHttpHeaders` (names in any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Constant time for equal lengths; a different length is no secret and fails at once. */
function same(expected: string, candidate: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(candidate);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The verified event of a delivery, or a `WebhookVerificationError`. `payload` is the raw body
 * exactly as received (before any JSON parsing); `headers` the request's headers; `secret` the
 * webhook's `whsec_…` secret; `toleranceSeconds` how far `webhook-timestamp` may be from `now`
 * (milliseconds since the epoch; the clock by default).
 */
export function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
  now: number = Date.now(),
): WebhookEvent {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
  const hexHeader = headerOf(headers, 'x-webhook-signature');
  const id = headerOf(headers, 'webhook-id');
  const timestamp = headerOf(headers, 'webhook-timestamp');
  const standardHeader = headerOf(headers, 'webhook-signature');
  if (!hexHeader || !id || !timestamp || !standardHeader) {
    throw new WebhookVerificationError(
      'missing_headers',
      'X-Webhook-Signature, webhook-id, webhook-timestamp and webhook-signature are required',
    );
  }
  if (!/^\d+$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) {
    throw new WebhookVerificationError('stale_timestamp', `webhook-timestamp is more than ${toleranceSeconds} s from now`);
  }

  const hex = createHmac('sha256', secret).update(body).digest('hex');
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const standard = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  const hexMatches = hexHeader.split(',').some((value) => same(hex, value.trim()));
  const standardMatches = standardHeader
    .split(' ')
    .map((entry) => entry.split(','))
    .some(([version, value]) => version === 'v1' && value !== undefined && same(standard, value));
  if (!hexMatches || !standardMatches) throw new WebhookVerificationError('signature_mismatch', 'the signatures do not match the body');

  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('malformed_body', 'the body is not JSON');
  }
  if (typeof event !== 'object' || event === null || (event as { id?: unknown }).id !== id) {
    throw new WebhookVerificationError('malformed_body', "the body's id is not the signed webhook-id");
  }
  return event as WebhookEvent;
}

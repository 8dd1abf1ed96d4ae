/**
 * Verifies a Print Shop API webhook delivery. Copy this file into your receiver; it needs only
 * Node's `crypto`. Pass the raw body exactly as received (before any JSON parsing), the request
 * headers and your webhook secret (`whsec_…`).
 *
 * It checks, in constant time:
 * - `X-Webhook-Signature`: hex HMAC-SHA256 of the raw body keyed with the secret string;
 * - `webhook-signature` (Standard Webhooks): HMAC over `<webhook-id>.<webhook-timestamp>.<body>`,
 *   which also binds the delivery id and the time, plus that `webhook-timestamp` is within
 *   `toleranceSeconds` of now, so a captured request cannot be replayed later.
 * After a secret rotation both headers carry two signatures for 24 h (comma-separated in
 * X-Webhook-Signature, space-separated in webhook-signature); matching any one is enough.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type VerifyResult = { ok: true } | { ok: false; reason: string };

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Constant-time comparison (different lengths are not secret: they fail at once). */
function same(expected: string, candidate: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(candidate);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function verifyWebhook(
  rawBody: string | Buffer,
  headers: Headers,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): VerifyResult {
  const signature = header(headers, 'x-webhook-signature');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const standard = header(headers, 'webhook-signature');
  if (!signature || !id || !timestamp || !standard) return { ok: false, reason: 'missing signature headers' };

  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > tolerance) return { ok: false, reason: 'stale timestamp' };

  const hex = createHmac('sha256', secret).update(rawBody).digest('hex');
  if (!signature.split(',').some((value) => same(hex, value.trim()))) return { ok: false, reason: 'signature mismatch' };

  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64');
  const candidates = standard
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version]) => version === 'v1');
  if (!candidates.some(([, value]) => value !== undefined && same(expected, value))) return { ok: false, reason: 'signature mismatch' };

  return { ok: true };
}

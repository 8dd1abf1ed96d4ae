/**
 * Sendcloud signs each webhook call: `Sendcloud-Signature` is the lowercase hex HMAC-SHA256 of the
 * raw request body, keyed with the integration's secret key. Checked over the exact bytes received,
 * in constant time. The signature covers no timestamp: replays are harmless because updates are
 * idempotent (the same report twice is one) and ordered by the payload's timestamp.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const sendcloudSignature = (secret: string, rawBody: Uint8Array | string): string =>
  createHmac('sha256', secret).update(rawBody).digest('hex');

/** True when `signature` (the header's value) is the body's HMAC under `secret`. */
export function verifySendcloudSignature(secret: string, rawBody: Uint8Array | string, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature.trim())) return false;
  const expected = Buffer.from(sendcloudSignature(secret, rawBody), 'hex');
  const given = Buffer.from(signature.trim().toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

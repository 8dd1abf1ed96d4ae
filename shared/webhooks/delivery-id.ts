/**
 * Delivery ids (`wh_…`): one per (event, registration), derived from both, so a stream record
 * that is routed twice (Lambda retries, a local replay) produces the same id and the delivery
 * item's `attribute_not_exists` condition turns the second routing into a no-op. The id stays
 * the same across retries and redeliveries, so receivers can deduplicate on it.
 *
 * Shape: `wh_` + the event id's 8 time characters (so ids sort by event time, which lets the
 * history list newest first from the index) + 16 base62 characters of a SHA-256.
 */
import { createHash } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const DELIVERY_ID_PATTERN = /^wh_[0-9A-Za-z]{24}$/;

function base62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = alphabet[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

export function deliveryIdFor(eventId: string, tenant: Tenant, webhookId: number): string {
  const digest = createHash('sha256').update(`${tenant.accountId}|${tenant.mode}|${eventId}|${webhookId}`).digest();
  const hash = base62(BigInt(`0x${digest.subarray(0, 16).toString('hex')}`), 16);
  // Event ids are `evt_` + 8 base62 characters of milliseconds + random (shared/ids.ts).
  const time = /^evt_([0-9A-Za-z]{8})/.exec(eventId)?.[1] ?? base62(BigInt(`0x${digest.subarray(16, 24).toString('hex')}`), 8);
  return `wh_${time}${hash}`;
}

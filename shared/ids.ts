import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 string; 22 characters carry about 131 bits. */
export function randomToken(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i]!;
    // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely.
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out.length === length ? out : out + randomToken(length - out.length);
}

/** The 8 base62 characters of a millisecond time that start time-ordered ids (sorting like the times). */
export function idTime(ms: number): string {
  let time = Math.max(0, Math.floor(ms));
  let encoded = '';
  for (let i = 0; i < 8; i++) {
    encoded = alphabet[time % 62] + encoded;
    time = Math.floor(time / 62);
  }
  return encoded;
}

/**
 * Time-ordered opaque id with a prefix (`evt_`, `wh_`, `key_`…): 8 base62 characters of
 * milliseconds then random ones, so ids sort by creation time like Stripe's.
 */
export function prefixedId(prefix: string, randomLength = 14): string {
  // idTime's loop, inlined: every bundle that makes ids carries this, only the lists carry idTime.
  let time = Date.now();
  let encoded = '';
  for (let i = 0; i < 8; i++) {
    encoded = alphabet[time % 62] + encoded;
    time = Math.floor(time / 62);
  }
  return `${prefix}_${encoded}${randomToken(randomLength)}`;
}

/** Integer ids are stored zero-padded in sort keys so that they sort numerically. */
export const padId = (id: number): string => String(id).padStart(12, '0');

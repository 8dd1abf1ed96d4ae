/**
 * Webhook secrets and signatures. Two signature schemes are sent with every delivery:
 *
 * - `X-Webhook-Signature` (the spec): lowercase hex HMAC-SHA256 of the exact raw body, keyed with
 *   the secret string as shown to the user (`whsec_…`, all of it).
 * - `webhook-signature` (Standard Webhooks): `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`,
 *   keyed with the base64-decoded part after `whsec_` — exactly what Standard Webhooks libraries
 *   do with a `whsec_` secret, so they verify our deliveries unchanged.
 *
 * During the 24 h after a rotation both the new and the previous secret sign: the values are
 * comma-separated in `X-Webhook-Signature` and space-separated in `webhook-signature`.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 36 random bytes (288 bits): base64 without padding, inside Standard Webhooks' 24–64 byte range. */
const SECRET_BYTES = 36;
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** What reads show instead of the secret: enough to tell two secrets apart, not to sign. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}

/** The spec's signature: hex HMAC-SHA256 of the raw body, keyed with the whole secret string. */
export function hexSignature(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The Standard Webhooks key: the bytes the base64 after `whsec_` encodes. */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** One Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. */
export function standardSignature(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const mac = createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export interface SigningSecrets {
  secret: string;
  /** Still signing until `previous_secret_expires_at` (ISO time). */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/** The secrets that sign right now: the current one first, then the previous one while it overlaps. */
export function activeSecrets(secrets: SigningSecrets, now = new Date()): string[] {
  const { secret, previous_secret: previous, previous_secret_expires_at: expiresAt } = secrets;
  return previous && expiresAt && Date.parse(expiresAt) > now.getTime() ? [secret, previous] : [secret];
}

export function signatureHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'X-Webhook-Signature': secrets.map((secret) => hexSignature(secret, body)).join(','),
    'webhook-signature': secrets.map((secret) => standardSignature(secret, id, timestamp, body)).join(' '),
  };
}

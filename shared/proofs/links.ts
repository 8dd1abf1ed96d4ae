/**
 * Proof links' tokens — pure. A token is a capability: whoever holds it may see the proof and
 * decide on it, without an account. It carries the tenant it belongs to (a public route has no
 * key to name one) and 256 random bits; only its SHA-256 is stored, as with refresh tokens and
 * API keys. A token that is malformed, unknown, expired or revoked is refused with one and the
 * same answer (404 `not_found`): nothing tells a guess from a token that once worked.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { DomainError } from '#shared/errors';

/** Random bytes of a token: 256 bits (at least 128 are required). */
export const LINK_TOKEN_BYTES = 32;

const TOKEN = /^(acct_[A-Za-z0-9]{1,64})\.(test|live)\.([A-Za-z0-9_-]{43})$/;

/** A new token for a proof of `tenant`: `<account id>.<mode>.<43 base64url characters>`. */
export const newLinkToken = (tenant: Tenant): string =>
  `${tenant.accountId}.${tenant.mode}.${randomBytes(LINK_TOKEN_BYTES).toString('base64url')}`;

/** What is stored for a token: its SHA-256 (hex). */
export const linkTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The tenant a well-formed token names (undefined for anything else). */
export function tenantOfLinkToken(token: string): Tenant | undefined {
  const match = TOKEN.exec(token);
  return match ? { accountId: match[1]!, mode: match[2] as Tenant['mode'] } : undefined;
}

/** The one refusal of every token that does not open a proof now. */
export const unknownLink = (): DomainError =>
  new DomainError('not_found', 'No proof link with this token: it is wrong, has expired or was revoked');

/** The path a link opens (the API's `GET /v1/proof-links/{token}`), under `apiBase`. */
export const linkUrl = (apiBase: string, token: string): string => `${apiBase.replace(/\/+$/, '')}/v1/proof-links/${token}`;

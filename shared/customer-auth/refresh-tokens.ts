/**
 * Refresh-token families (RFC 9700 §4.14): a login starts a family; each refresh uses its token
 * once and gets the next one in the same family. A token presented a second time means it was
 * copied — the whole family is revoked, so the thief's and the customer's tokens both stop
 * working. Tokens are stored by their SHA-256 only, expire after 30 days (and by TTL), and a
 * rotation is one transaction conditional on the old token being unused, the family alive and
 * the family's login generation still current (session-rules.ts), so two concurrent refreshes with
 * one token cannot both succeed (the second counts as reuse), and no family a password change or
 * reset ended refreshes again.
 */
import { randomUUID } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import * as repo from './repository';
import type { SessionStamp } from './session-rules';
import type { RefreshTokenRecord } from './stored';
import { newRefreshToken, REFRESH_TOKEN_DAYS, refreshTokenHash } from './tokens';

/** Why a refresh token was refused; the API answers 401 for every one of them, without saying which. */
export type RefreshRefusal = 'unknown' | 'expired' | 'revoked' | 'reused' | 'ended';

export class RefreshRefused extends Error {
  constructor(readonly reason: RefreshRefusal) {
    super(`Refresh token refused: ${reason}`);
    this.name = 'RefreshRefused';
  }
}

const DAY_MS = 86_400_000;

/** A new token of a family, issued at `now`: valid for REFRESH_TOKEN_DAYS, its item leaving the table then (the TTL). */
function newToken(
  familyId: string,
  customerId: number,
  generation: number,
  now: Date,
): { token: string; tokenHash: string; record: RefreshTokenRecord } {
  const token = newRefreshToken();
  const expires = new Date(now.getTime() + REFRESH_TOKEN_DAYS * DAY_MS);
  return {
    token,
    tokenHash: refreshTokenHash(token),
    record: {
      family_id: familyId,
      customer_id: customerId,
      generation,
      created_at: now.toISOString(),
      valid_until: expires.toISOString(),
      expires_at: Math.floor(expires.getTime() / 1000),
      used_at: null,
    },
  };
}

/**
 * A login: a new family with its first token, of the login's session generation (`generation`, as
 * read with the password verified: a change made meanwhile has moved it, and the family is ended
 * from its start).
 */
export async function startFamily(
  tenant: Tenant,
  customerId: number,
  now = new Date(),
  generation = 0,
): Promise<{ refreshToken: string; familyId: string }> {
  const familyId = randomUUID();
  const first = newToken(familyId, customerId, generation, now);
  await repo.insertFamily(
    tenant,
    familyId,
    // The family outlives its tokens by nothing: each rotation moves its expiry with the new token.
    {
      customer_id: customerId,
      generation,
      created_at: now.toISOString(),
      expires_at: first.record.expires_at,
      last_used_at: null,
      revoked_at: null,
    },
    { tokenHash: first.tokenHash, token: first.record },
  );
  return { refreshToken: first.token, familyId };
}

/** The family of a refresh token (logout), or undefined for an unknown one. */
export async function familyOf(tenant: Tenant, token: string): Promise<string | undefined> {
  return (await repo.readRefreshToken(tenant, refreshTokenHash(token)))?.family_id;
}

/**
 * A login session (a family) of this customer that was not logged out, with its generation — what
 * the authorizer holds against the login (session-rules.ts): access tokens name theirs (`sid`), so
 * a logout, a password change or a reset ends them at once, not only at their expiry.
 */
export async function readSession(tenant: Tenant, familyId: string, customerId: number): Promise<SessionStamp | undefined> {
  const family = await repo.readFamily(tenant, familyId);
  if (family === undefined || family.customer_id !== customerId || family.revoked_at !== null) return undefined;
  return { familyId, generation: family.generation };
}

/** Revokes a family: none of its tokens refreshes again. Idempotent. */
export async function revokeFamily(tenant: Tenant, familyId: string, now = new Date()): Promise<void> {
  await repo.revokeFamily(tenant, familyId, now);
}

/**
 * Uses `token` once: answers the customer and a new token of the same family, or throws
 * RefreshRefused (and revokes the family when the token was used before).
 */
export async function rotate(
  tenant: Tenant,
  token: string,
  now = new Date(),
): Promise<{ customerId: number; refreshToken: string; familyId: string }> {
  const tokenHash = refreshTokenHash(token);
  const stored = await repo.readRefreshToken(tenant, tokenHash);
  if (!stored) throw new RefreshRefused('unknown');
  const { family_id: familyId, customer_id: customerId, generation } = stored;
  if (stored.used_at) {
    await revokeFamily(tenant, familyId, now);
    throw new RefreshRefused('reused');
  }
  if (stored.valid_until <= now.toISOString()) throw new RefreshRefused('expired');
  const next = newToken(familyId, customerId, generation, now);
  const outcome = await repo.rotateRefreshToken(
    tenant,
    { tokenHash, familyId, customerId, generation, next: { tokenHash: next.tokenHash, token: next.record } },
    now,
  );
  if (outcome === 'family-revoked') throw new RefreshRefused('revoked');
  if (outcome === 'login-ended') throw new RefreshRefused('ended');
  // Used by a concurrent refresh a moment ago: the same token twice is a reuse, whoever came first.
  if (outcome === 'token-used') {
    await revokeFamily(tenant, familyId, now);
    throw new RefreshRefused('reused');
  }
  return { customerId, refreshToken: next.token, familyId };
}

/**
 * The keys customer access tokens are signed with: ES256 (P-256) key pairs, each named by its
 * `kid` (the RFC 7638 thumbprint of its public key). A key set holds the current key, which signs,
 * and the previous one, still published and accepted until tokens signed with it have expired —
 * so a rotation never logs anyone out. Where the set is kept (a per-stage secret on AWS, a file
 * under the data folder locally) is the caller's business; this module only makes and reads keys.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

export const ALGORITHM = 'ES256';

export interface StoredSigningKey {
  kid: string;
  /** The private JWK (d, x, y, crv, kty): secret material, never logged or returned. */
  private_jwk: JWK;
  created_at: string;
}

export interface SigningKeySet {
  current: StoredSigningKey;
  previous: StoredSigningKey | null;
}

/** A new key pair, named by its thumbprint. */
export async function newSigningKey(now = new Date()): Promise<StoredSigningKey> {
  const { privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicPart(privateJwk));
  return { kid, private_jwk: { ...privateJwk, kid, alg: ALGORITHM }, created_at: now.toISOString() };
}

/** The set after a rotation: a new current key, the old current kept as previous (the one before it dropped). */
export async function rotated(set: SigningKeySet | null, now = new Date()): Promise<SigningKeySet> {
  return { current: await newSigningKey(now), previous: set?.current ?? null };
}

/** The public half of a JWK: what JWKS publishes. */
export function publicPart(jwk: JWK): JWK {
  const { kty, crv, x, y, kid } = jwk;
  return { kty, crv, x, y, ...(kid ? { kid, alg: ALGORITHM, use: 'sig' } : {}) };
}

/** `GET /v1/auth/jwks.json`: the current and the previous public key. */
export function jwksOf(set: SigningKeySet): { keys: JWK[] } {
  return { keys: [set.current, ...(set.previous ? [set.previous] : [])].map((key) => publicPart(key.private_jwk)) };
}

/**
 * How long a new key is published before it signs: longer than any function keeps the keys it read
 * (key-store.ts, 5 minutes). Until then the previous key signs, so a token is never signed with a
 * key that a verifier's cached key set does not have yet.
 */
export const ACTIVATION_DELAY_MS = 6 * 60_000;

/** The key that signs now — the current one once it is old enough, the previous one until then — ready to sign with. */
export async function signingKeyOf(
  set: SigningKeySet,
  now = new Date(),
): Promise<{ kid: string; key: Awaited<ReturnType<typeof importJWK>> }> {
  const young = now.getTime() - Date.parse(set.current.created_at) < ACTIVATION_DELAY_MS;
  const signer = young && set.previous ? set.previous : set.current;
  return { kid: signer.kid, key: await importJWK(signer.private_jwk, ALGORITHM) };
}

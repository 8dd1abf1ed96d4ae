/**
 * The published half of the stage's signing keys (key-store.ts): what verifying a customer access
 * token needs. Apart from the key store, so the authorizer reads the public JWKs only — it never
 * opens a private key or carries the KMS client — and for the JWKS endpoint.
 */
import type { JSONWebKeySet } from 'jose';
import { ServiceUnavailableError } from '#shared/errors';
import { readPublishedJwks } from './repository';

/** What a route answers when the stage has no keys yet: nothing a caller can fix, so 503 naming the operator's step. */
export const MISSING_KEYS_MESSAGE =
  'Customer logins are not set up on this stage: its operator makes the token-signing keys with `npm run accounts -- rotate-signing-key` (the first `accounts -- create` of a stage makes them too)';

/** How long a function keeps the keys it read: a new key is published before it signs (signing-keys.ts). */
export const KEY_CACHE_MS = 5 * 60_000;

let cached: { at: number; jwks: Promise<JSONWebKeySet> } | undefined;

async function readPublished(): Promise<JSONWebKeySet> {
  return { keys: await readPublishedJwks() };
}

/**
 * The published keys (current and previous), kept KEY_CACHE_MS. An empty set — no key made yet,
 * an operator's step (key-store.ts) — is not kept: the keys verify as soon as they are made.
 */
export function publishedKeys(): Promise<JSONWebKeySet> {
  if (!cached || Date.now() - cached.at >= KEY_CACHE_MS) {
    const jwks = readPublished();
    cached = { at: Date.now(), jwks };
    jwks.then(
      (set) => {
        if (set.keys.length === 0) cached = undefined;
      },
      () => (cached = undefined),
    );
  }
  return cached.jwks;
}

/** The JWKS endpoint's answer: the published keys, or 503 while the stage has none. */
export async function requirePublishedKeys(): Promise<JSONWebKeySet> {
  const jwks = await publishedKeys();
  if (jwks.keys.length === 0) throw new ServiceUnavailableError(MISSING_KEYS_MESSAGE);
  return jwks;
}

/** Tests: forget the cached keys. */
export function resetPublishedKeys(): void {
  cached = undefined;
}

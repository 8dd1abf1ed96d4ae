/**
 * Where the stage's token-signing keys live: one platform item of the table, holding the current
 * and the previous key — the public JWKs in the clear (the authorizer and the JWKS endpoint read
 * only those), the private JWKs sealed with the stage's secrets key (shared/crypto/envelope.ts:
 * KMS on AWS, a key file under the data folder locally — the same master key as the webhook
 * secrets, under their own encryption context `customer-token-signing-key`, which only the token
 * signers are granted). So no key is in the template or the repository, and none is ever in
 * plaintext at rest.
 *
 * Route functions only read this item: platform items are read-only to their roles. The keys are
 * made by the operator's tools — `npm run accounts -- create` (the first account of a stage
 * needs them) and `rotate-signing-key` on AWS, the local runner and the test setup locally — with
 * `ensureSigningKeys`, which puts a key on condition that none exists (a concurrent first use
 * loses that condition and keeps the winner's). A stage without keys answers 503 on the routes
 * that need them, naming the command. A rotation is conditional on the current key it read.
 * Functions keep what they read for a few minutes: a rotated key signs within that time
 * everywhere, and verification accepts the previous key meanwhile.
 */
import type { JWK } from 'jose';
import { retry } from '#shared/async/retry';
import { isCurrentSeal, open, seal } from '#shared/crypto/envelope';
import { ServiceUnavailableError } from '#shared/errors';
import { KEY_CACHE_MS, MISSING_KEYS_MESSAGE, resetPublishedKeys } from './published-keys';
import * as repo from './repository';
import { newSigningKey, publicPart, type SigningKeySet, type StoredSigningKey } from './signing-keys';
import type { SigningKeyEntry, SigningKeysRecord } from './stored';

export { KEY_CACHE_MS };

const aad = (kid: string) => `customer-token-signing-key:${kid}`;
/** Their own encryption context (shared/crypto/kinds.ts): only the token signers are granted it. */
const KIND = 'customer-token-signing-key';

async function entryOf(key: StoredSigningKey): Promise<SigningKeyEntry> {
  return {
    kid: key.kid,
    public_jwk: publicPart(key.private_jwk),
    private_sealed: await seal(JSON.stringify(key.private_jwk), aad(key.kid), KIND),
    created_at: key.created_at,
  };
}

async function keyOf(entry: SigningKeyEntry): Promise<StoredSigningKey> {
  return {
    kid: entry.kid,
    private_jwk: JSON.parse(await open(entry.private_sealed, aad(entry.kid), KIND)) as JWK,
    created_at: entry.created_at,
  };
}

const readEntries = (): Promise<SigningKeysRecord | undefined> => repo.readSigningKeys();

/** Puts `set` on condition that the current kid is still `expectedKid` (none: no keys yet); answers what it stored, or undefined. */
async function write(set: SigningKeySet, expectedKid: string | null): Promise<SigningKeysRecord | undefined> {
  const stored: SigningKeysRecord = {
    current: await entryOf(set.current),
    previous: set.previous ? await entryOf(set.previous) : null,
    current_kid: set.current.kid,
  };
  return (await repo.putSigningKeys(stored, expectedKid)) ? stored : undefined;
}

/** The stored entries; a route never makes them (its role may not write platform items). */
async function entries(): Promise<SigningKeysRecord> {
  const stored = await readEntries();
  if (!stored) throw new ServiceUnavailableError(MISSING_KEYS_MESSAGE);
  return stored;
}

/**
 * The operator's tools: makes the stage's keys unless they exist (a concurrent first use keeps the
 * winner's). Answers the current kid and whether this call made it.
 */
export async function ensureSigningKeys(): Promise<{ kid: string; created: boolean }> {
  const stored = await readEntries();
  if (stored) return { kid: stored.current.kid, created: false };
  const made = await write({ current: await newSigningKey(), previous: null }, null);
  if (made) return { kid: made.current.kid, created: true };
  return { kid: (await readEntries())!.current.kid, created: false };
}

let cachedSigning: { at: number; set: Promise<SigningKeySet> } | undefined;

const fresh = (cached: { at: number } | undefined): boolean => cached !== undefined && Date.now() - cached.at < KEY_CACHE_MS;

/** The keys with their private halves opened: for the functions that sign (login, refresh). */
export function signingKeys(): Promise<SigningKeySet> {
  if (!fresh(cachedSigning)) {
    const set = entries().then(async (stored) => ({
      current: await keyOf(stored.current),
      previous: stored.previous ? await keyOf(stored.previous) : null,
    }));
    set.catch(() => (cachedSigning = undefined));
    cachedSigning = { at: Date.now(), set };
  }
  return cachedSigning!.set;
}

/** A new current key; the old current stays published as previous. Answers the new kid. */
export async function rotateSigningKeys(): Promise<string> {
  return retry(
    async () => {
      await ensureSigningKeys();
      const stored = await entries();
      const next = { current: await newSigningKey(), previous: await keyOf(stored.current) };
      if (!(await write(next, stored.current.kid))) throw new KeysMoved();
      resetKeyCache();
      return next.current.kid;
    },
    {
      isRetryable: (error) => error instanceof KeysMoved,
      maxAttempts: 3,
      pauseMs: 50,
      exhausted: () => new Error('The signing keys were rotated by someone else at the same time; try again'),
    },
  );
}

/**
 * The operator's migration (`npm run events -- seal-secrets`, never a request path): private halves
 * sealed before each kind of secret had its own encryption context (`enc1.…`, under the one shared
 * context) are sealed again as `customer-token-signing-key`, the same keys, conditional on the
 * current kid read (a rotation meanwhile sealed them anew: read again). Answers 'none' (no keys
 * yet), 'current' (nothing to do) or 'sealed-now'.
 */
export async function resealSigningKeys(): Promise<'none' | 'current' | 'sealed-now'> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const stored = await readEntries();
    if (!stored) return 'none';
    const entries = stored.previous ? [stored.current, stored.previous] : [stored.current];
    if (entries.every((entry) => isCurrentSeal(entry.private_sealed, KIND))) return 'current';
    const same = { current: await keyOf(stored.current), previous: stored.previous ? await keyOf(stored.previous) : null };
    if (await write(same, stored.current.kid)) {
      resetKeyCache();
      return 'sealed-now';
    }
  }
  throw new Error('The signing keys kept being rotated while they were being sealed again; run it again');
}

/** Another rotation won the conditional write: read the keys again. */
class KeysMoved extends Error {}

/** Tests: forget the cached keys. */
export function resetKeyCache(): void {
  cachedSigning = undefined;
  resetPublishedKeys();
}

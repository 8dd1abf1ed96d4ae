/**
 * The kinds of secret sealed at rest, each with its own encryption context (envelope.ts): a data
 * key made for one kind opens values of that kind only — KMS refuses a Decrypt whose context
 * differs, and the local key file binds the same context as the wrap's authenticated data. The IAM
 * grants (infra/secrets.ts) are conditioned on the context (`kms:EncryptionContext:purpose`), so a
 * function can decrypt only the kinds it is granted: the carrier callback, for one, only the
 * callback secret it verifies signatures with. Kept apart from envelope.ts so that the CDK code
 * reads the kinds without the crypto.
 */

/** The encryption context's one key; its value is the kind. IAM conditions name it: `kms:EncryptionContext:purpose`. */
export const CONTEXT_KEY = 'purpose';

export const SECRET_KINDS = [
  /** A webhook registration's signing secret (shared/webhooks/secrets.ts). */
  'webhook-signing-secret',
  /** The private half of a customer-token signing key (shared/customer-auth/key-store.ts). */
  'customer-token-signing-key',
  /** A tenant's carrier API credentials: Sendcloud's secret key (shared/shipments/settings.ts). */
  'carrier-credentials',
  /** What a carrier signs its callbacks with: Sendcloud's webhook signature key, or its secret key (shared/shipments/settings.ts). */
  'carrier-callback-secret',
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

export type EncryptionContext = Readonly<Record<typeof CONTEXT_KEY, string>>;

/** The encryption context of a kind's data keys. */
export const contextOf = (kind: SecretKind): EncryptionContext => ({ [CONTEXT_KEY]: kind });

/**
 * The one context every kind shared before each had its own (stored values `enc1.…`). Such values
 * are still opened — only as one of LEGACY_KINDS, never as the callback secret — until
 * `npm run events -- seal-secrets` has sealed them again under their kind's context; nothing
 * seals under it any more.
 */
export const LEGACY_CONTEXT: EncryptionContext = { [CONTEXT_KEY]: 'webhook-secrets' };

/** Kinds that may still have values sealed under LEGACY_CONTEXT (the callback secret was never sealed before: it has none). */
export const LEGACY_KINDS: readonly SecretKind[] = ['webhook-signing-secret', 'customer-token-signing-key', 'carrier-credentials'];

/** Kinds whose values may still be stored in plaintext, from before sealing existed: webhook signing secrets only. */
export const PLAINTEXT_KINDS: readonly SecretKind[] = ['webhook-signing-secret'];

/**
 * Envelope encryption of small secrets (webhook signing secrets, customer-token signing keys,
 * carrier credentials and callback secrets): each value is encrypted with AES-256-GCM under a data
 * key, and the data key is stored next to it encrypted under a master key — KMS on AWS
 * (`WEBHOOK_SECRETS_KEY_ID`), a generated key file under the data folder locally
 * (`LOCAL_SECRETS_KEY_FILE`, created by local-aws/engines.ts). Each kind of secret has its own
 * encryption context (kinds.ts): its data keys are made and opened under `{ purpose: <kind> }` —
 * by KMS, whose IAM grants are conditioned on it (infra/secrets.ts), and locally as the wrap's
 * authenticated data, so the key file enforces the same separation. The stored form
 *
 *   enc2.<kind>.<kms|local>.<master key id>.<encrypted data key>.<iv>.<ciphertext + tag>   (base64url parts)
 *
 * holds no plaintext. `open` is told which kind it expects: a value labelled another kind is
 * refused before any key is touched, and one relabelled fails on its data key's context — there is
 * no second attempt under another context. Values sealed before the kinds had their own contexts
 * (`enc1.…`, all under one shared context) open only as the kinds that had them (LEGACY_KINDS),
 * plaintext only as a webhook signing secret (PLAINTEXT_KINDS); `npm run events -- seal-secrets`
 * seals both again as `enc2`.
 *
 * Data keys stay in memory only: a container encrypts with one data key per kind for at most an
 * hour or 1000 values (one GenerateDataKey), and decrypts each stored data key once (one KMS
 * Decrypt), keeping at most 256 of them by data key *and* context — never logged. `aad` binds a
 * value to its owner (a ciphertext copied onto another item does not open there).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decryptDataKey, generateDataKey } from '#shared/clients/kms';
import { secretsKeyEnv } from './env';
import { LEGACY_CONTEXT, LEGACY_KINDS, PLAINTEXT_KINDS, SECRET_KINDS, contextOf, type EncryptionContext, type SecretKind } from './kinds';

/** The stored form of values sealed under their kind's own context. */
const PREFIX = 'enc2';
/** The stored form of values sealed before, all kinds under LEGACY_CONTEXT. */
const LEGACY_PREFIX = 'enc1';
const DATA_KEY_MAX_AGE_MS = 3600_000;
const DATA_KEY_MAX_USES = 1000;
const OPENED_KEYS_MAX = 256;

type Provider = 'kms' | 'local';

interface DataKey {
  provider: Provider;
  masterKeyId: string;
  plaintext: Buffer;
  encrypted: Buffer;
  createdAt: number;
  uses: number;
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');

/** True for a value this module sealed, now or before the kinds had their own contexts; anything else is plaintext. */
export const isSealed = (value: string): boolean => value.startsWith(`${PREFIX}.`) || value.startsWith(`${LEGACY_PREFIX}.`);

/** True for a value sealed as `kind` under its own context: nothing for the migration (seal-secrets) to do. */
export const isCurrentSeal = (value: string, kind: SecretKind): boolean => value.startsWith(`${PREFIX}.${kind}.`);

const isKind = (value: string | undefined): value is SecretKind => (SECRET_KINDS as readonly string[]).includes(value ?? '');

// --- the local master key (a file under the data folder) ---------------------------------------

let localKey: { path: string; key: Buffer; id: string } | undefined;

function localMasterKey(): { key: Buffer; id: string } {
  const path = process.env[secretsKeyEnv.localKeyFile];
  if (!path) throw new Error('No local key for secrets: LOCAL_SECRETS_KEY_FILE is not set (the local runtime sets it)');
  if (localKey?.path !== path) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${path} does not hold a 256-bit key (base64)`);
    localKey = { path, key, id: `local-${createHash('sha256').update(key).digest('hex').slice(0, 16)}` };
  }
  return localKey;
}

/** The local wrap's authenticated data: the context, as KMS binds it. */
const contextAad = (context: EncryptionContext) => Buffer.from(JSON.stringify(context));

function aesSeal(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: Buffer; sealed: Buffer } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { iv, sealed };
}

function aesOpen(key: Buffer, iv: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(aad);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
}

// --- data keys -----------------------------------------------------------------------------------

/** The container's data key for sealing, per kind (each made under its kind's context), and the one being made. */
const current = new Map<SecretKind, DataKey>();
const pending = new Map<SecretKind, Promise<DataKey>>();

async function newDataKey(kind: SecretKind): Promise<DataKey> {
  const webhookSecretsKeyId = process.env[secretsKeyEnv.kmsKeyId];
  const context = contextOf(kind);
  if (process.env[secretsKeyEnv.localKeyFile]) {
    const master = localMasterKey();
    const plaintext = randomBytes(32);
    const { iv, sealed } = aesSeal(master.key, plaintext, contextAad(context));
    return { provider: 'local', masterKeyId: master.id, plaintext, encrypted: Buffer.concat([iv, sealed]), createdAt: Date.now(), uses: 0 };
  }
  if (!webhookSecretsKeyId) {
    throw new Error('No key for secrets: WEBHOOK_SECRETS_KEY_ID (AWS) or LOCAL_SECRETS_KEY_FILE (local runtime) must be set');
  }
  const generated = await generateDataKey(webhookSecretsKeyId, context);
  return {
    provider: 'kms',
    masterKeyId: generated.keyId,
    plaintext: generated.plaintext,
    encrypted: generated.ciphertext,
    createdAt: Date.now(),
    uses: 0,
  };
}

/** The container's data key of `kind` for encrypting: a new one after an hour or 1000 values. */
async function dataKeyForSealing(kind: SecretKind): Promise<DataKey> {
  let key = current.get(kind);
  while (!key || key.uses >= DATA_KEY_MAX_USES || Date.now() - key.createdAt > DATA_KEY_MAX_AGE_MS) {
    let making = pending.get(kind);
    if (!making) {
      making = newDataKey(kind)
        .then((made) => (current.set(kind, made), made))
        .finally(() => pending.delete(kind));
      pending.set(kind, making);
    }
    key = await making;
  }
  key.uses++;
  return key;
}

/**
 * Stored data key (its encrypted form) under a context → its plaintext, least recently used dropped
 * first. The context is part of the cache key: a data key opened for one kind is never handed out
 * for another without KMS (or the key file) checking that context.
 */
const opened = new Map<string, Promise<Buffer>>();

function openDataKey(provider: Provider, masterKeyId: string, encrypted: Buffer, context: EncryptionContext): Promise<Buffer> {
  const cacheKey = `${JSON.stringify(context)}.${provider}.${masterKeyId}.${b64(encrypted)}`;
  const cached = opened.get(cacheKey);
  if (cached) {
    opened.delete(cacheKey);
    opened.set(cacheKey, cached);
    return cached;
  }
  const opening =
    provider === 'local'
      ? Promise.resolve().then(() => {
          const master = localMasterKey();
          if (master.id !== masterKeyId) throw new Error(`This secret was sealed with local key ${masterKeyId}, not ${master.id}`);
          return aesOpen(master.key, encrypted.subarray(0, 12), encrypted.subarray(12), contextAad(context));
        })
      : decryptDataKey(masterKeyId, encrypted, context);
  opened.set(cacheKey, opening);
  opening.catch(() => opened.delete(cacheKey));
  if (opened.size > OPENED_KEYS_MAX) opened.delete(opened.keys().next().value!);
  return opening;
}

// --- values --------------------------------------------------------------------------------------

/** The value's own authenticated data: the kind and the owner (`aad`). */
const valueAad = (kind: SecretKind, aad: string) => Buffer.from(`${kind}\n${aad}`, 'utf8');

/** Encrypts `value` of `kind` for storage; the same `aad` (e.g. its owner's key) and kind must be given to open it. */
export async function seal(value: string, aad: string, kind: SecretKind): Promise<string> {
  if (!isKind(kind)) throw new Error(`Unknown kind of secret: ${String(kind)}`);
  const key = await dataKeyForSealing(kind);
  const { iv, sealed } = aesSeal(key.plaintext, Buffer.from(value, 'utf8'), valueAad(kind, aad));
  return [PREFIX, kind, key.provider, b64(Buffer.from(key.masterKeyId)), b64(key.encrypted), b64(iv), b64(sealed)].join('.');
}

const malformed = () => new Error('Malformed sealed value');

/**
 * The plaintext of a value sealed as `kind`. Refused: a value sealed as another kind, one sealed
 * before under the shared context unless `kind` had such values (LEGACY_KINDS), and plaintext unless
 * `kind` was once stored so (PLAINTEXT_KINDS: webhook signing secrets, returned as they are).
 */
export async function open(stored: string, aad: string, kind: SecretKind): Promise<string> {
  if (stored.startsWith(`${PREFIX}.`)) {
    const [, storedKind, provider, masterKeyId, encrypted, iv, sealed, ...rest] = stored.split('.');
    if (
      !isKind(storedKind) ||
      (provider !== 'kms' && provider !== 'local') ||
      !masterKeyId ||
      !encrypted ||
      !iv ||
      !sealed ||
      rest.length
    ) {
      throw malformed();
    }
    if (storedKind !== kind) throw new Error(`This value is sealed as ${storedKind}, not ${kind}`);
    const dataKey = await openDataKey(provider, unb64(masterKeyId).toString(), unb64(encrypted), contextOf(kind));
    return aesOpen(dataKey, unb64(iv), unb64(sealed), valueAad(kind, aad)).toString('utf8');
  }
  if (stored.startsWith(`${LEGACY_PREFIX}.`)) {
    if (!LEGACY_KINDS.includes(kind)) throw new Error(`A ${kind} is never sealed under the shared context of older values`);
    const [, provider, masterKeyId, encrypted, iv, sealed, ...rest] = stored.split('.');
    if ((provider !== 'kms' && provider !== 'local') || !masterKeyId || !encrypted || !iv || !sealed || rest.length) throw malformed();
    const dataKey = await openDataKey(provider, unb64(masterKeyId).toString(), unb64(encrypted), LEGACY_CONTEXT);
    return aesOpen(dataKey, unb64(iv), unb64(sealed), Buffer.from(aad, 'utf8')).toString('utf8');
  }
  if (!PLAINTEXT_KINDS.includes(kind)) throw new Error(`This ${kind} is not sealed`);
  return stored;
}

/** Tests: forget the cached data keys and the local master key. */
export function resetEnvelope(): void {
  current.clear();
  pending.clear();
  opened.clear();
  localKey = undefined;
}

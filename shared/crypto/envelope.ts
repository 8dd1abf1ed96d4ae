/**
 * Envelope encryption of small secrets (webhook signing secrets): each value is encrypted with
 * AES-256-GCM under a data key, and the data key is stored next to it encrypted under a master
 * key — KMS on AWS (`WEBHOOK_SECRETS_KEY_ID`), a generated key file under the data folder locally
 * (`LOCAL_SECRETS_KEY_FILE`, created by local-aws/engines.ts). The stored form
 *
 *   enc1.<kms|local>.<master key id>.<encrypted data key>.<iv>.<ciphertext + tag>   (base64url parts)
 *
 * holds no plaintext. Data keys stay in memory only: a container encrypts with one data key for at
 * most an hour or 1000 values (one GenerateDataKey), and decrypts each stored data key once (one
 * KMS Decrypt), keeping at most 256 of them — never logged. `aad` binds a value to its owner (a
 * ciphertext copied onto another item does not open there).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decryptDataKey, generateDataKey } from '#shared/clients/kms';
import { secretsKeyEnv } from './env';

const PREFIX = 'enc1';
/** What every data key is bound to in KMS (its encryption context) and locally (the wrap's AAD). */
const CONTEXT = { purpose: 'webhook-secrets' } as const;
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

/** True for a value this module sealed; anything else is stored as it was written (older plaintext). */
export const isSealed = (value: string): boolean => value.startsWith(`${PREFIX}.`);

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

const contextAad = () => Buffer.from(JSON.stringify(CONTEXT));

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

let current: DataKey | undefined;
let pending: Promise<DataKey> | undefined;

async function newDataKey(): Promise<DataKey> {
  const webhookSecretsKeyId = process.env[secretsKeyEnv.kmsKeyId];
  if (process.env[secretsKeyEnv.localKeyFile]) {
    const master = localMasterKey();
    const plaintext = randomBytes(32);
    const { iv, sealed } = aesSeal(master.key, plaintext, contextAad());
    return { provider: 'local', masterKeyId: master.id, plaintext, encrypted: Buffer.concat([iv, sealed]), createdAt: Date.now(), uses: 0 };
  }
  if (!webhookSecretsKeyId) {
    throw new Error('No key for secrets: WEBHOOK_SECRETS_KEY_ID (AWS) or LOCAL_SECRETS_KEY_FILE (local runtime) must be set');
  }
  const generated = await generateDataKey(webhookSecretsKeyId, CONTEXT);
  return {
    provider: 'kms',
    masterKeyId: generated.keyId,
    plaintext: generated.plaintext,
    encrypted: generated.ciphertext,
    createdAt: Date.now(),
    uses: 0,
  };
}

/** The container's data key for encrypting: a new one after an hour or 1000 values. */
async function dataKeyForSealing(): Promise<DataKey> {
  if (!current || current.uses >= DATA_KEY_MAX_USES || Date.now() - current.createdAt > DATA_KEY_MAX_AGE_MS) {
    pending ??= newDataKey()
      .then((key) => (current = key))
      .finally(() => (pending = undefined));
    await pending;
  }
  current!.uses++;
  return current!;
}

/** Stored data key (its encrypted form) → its plaintext, least recently used dropped first. */
const opened = new Map<string, Promise<Buffer>>();

function openDataKey(provider: Provider, masterKeyId: string, encrypted: Buffer): Promise<Buffer> {
  const cacheKey = `${provider}.${masterKeyId}.${b64(encrypted)}`;
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
          return aesOpen(master.key, encrypted.subarray(0, 12), encrypted.subarray(12), contextAad());
        })
      : decryptDataKey(masterKeyId, encrypted, CONTEXT);
  opened.set(cacheKey, opening);
  opening.catch(() => opened.delete(cacheKey));
  if (opened.size > OPENED_KEYS_MAX) opened.delete(opened.keys().next().value!);
  return opening;
}

// --- values --------------------------------------------------------------------------------------

/** Encrypts `value` for storage; `aad` (e.g. its owner's key) must be given again to open it. */
export async function seal(value: string, aad: string): Promise<string> {
  const key = await dataKeyForSealing();
  const { iv, sealed } = aesSeal(key.plaintext, Buffer.from(value, 'utf8'), Buffer.from(aad, 'utf8'));
  return [PREFIX, key.provider, b64(Buffer.from(key.masterKeyId)), b64(key.encrypted), b64(iv), b64(sealed)].join('.');
}

/** The plaintext of a sealed value; a value that is not sealed (stored before sealing existed) is returned as it is. */
export async function open(stored: string, aad: string): Promise<string> {
  if (!isSealed(stored)) return stored;
  const [, provider, masterKeyId, encrypted, iv, sealed, ...rest] = stored.split('.');
  if ((provider !== 'kms' && provider !== 'local') || !masterKeyId || !encrypted || !iv || !sealed || rest.length) {
    throw new Error('Malformed sealed value');
  }
  const dataKey = await openDataKey(provider, unb64(masterKeyId).toString(), unb64(encrypted));
  return aesOpen(dataKey, unb64(iv), unb64(sealed), Buffer.from(aad, 'utf8')).toString('utf8');
}

/** Tests: forget the cached data keys and the local master key. */
export function resetEnvelope(): void {
  current = undefined;
  pending = undefined;
  opened.clear();
  localKey = undefined;
}

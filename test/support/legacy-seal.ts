/**
 * Seals a value as the envelope sealed every kind of secret before each kind had its own
 * encryption context — the stored form `enc1.local.…`, its data key wrapped under the one shared
 * context `{"purpose":"webhook-secrets"}` with the local key file — so that tests can store what
 * stages hold from then and check that it is still read, and sealed again by the migration. The
 * application never seals this form any more.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { secretsKeyEnv } from '#shared/crypto/env';
import { LEGACY_CONTEXT } from '#shared/crypto/kinds';

const b64 = (buffer: Buffer) => buffer.toString('base64url');

function gcm(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: Buffer; sealed: Buffer } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
  return { iv, sealed: Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]) };
}

/** `value` sealed in the old `enc1` form for `aad`, with the key file LOCAL_SECRETS_KEY_FILE names. */
export function sealLegacy(value: string, aad: string): string {
  const path = process.env[secretsKeyEnv.localKeyFile];
  if (!path) throw new Error('sealLegacy needs LOCAL_SECRETS_KEY_FILE');
  const master = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  const masterId = `local-${createHash('sha256').update(master).digest('hex').slice(0, 16)}`;
  const dataKey = randomBytes(32);
  const wrapped = gcm(master, dataKey, Buffer.from(JSON.stringify(LEGACY_CONTEXT)));
  const { iv, sealed } = gcm(dataKey, Buffer.from(value, 'utf8'), Buffer.from(aad, 'utf8'));
  return ['enc1', 'local', b64(Buffer.from(masterId)), b64(Buffer.concat([wrapped.iv, wrapped.sealed])), b64(iv), b64(sealed)].join('.');
}

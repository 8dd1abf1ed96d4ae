/**
 * The local stand-in for the KMS key that wraps webhook secrets' data keys (shared/crypto/envelope.ts):
 * a random 256-bit key in a file under the data folder, created on the first start, readable only
 * by its owner. Losing it makes the stored secrets of that data folder unreadable (rotate them);
 * every data folder — and the tests' stack — has its own.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SECRETS_KEY_FILE = 'secrets.key';

export const secretsKeyFile = (dir: string): string => join(dir, SECRETS_KEY_FILE);

/** The key file in `dir`, created with a new random key when missing; returns its path. */
export function ensureSecretsKey(dir: string): string {
  const file = secretsKeyFile(dir);
  if (existsSync(file)) {
    if (Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').length !== 32) {
      throw new Error(`${file} does not hold a 256-bit key (base64); it encrypts the stored webhook secrets, so it is not replaced`);
    }
    return file;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

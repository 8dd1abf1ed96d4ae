/**
 * Customer passwords, stored as OWASP's Password Storage Cheat Sheet recommends for scrypt: a
 * per-password random salt, N = 2^17, r = 8, p = 1 (128 MiB of memory per hash — the auth
 * functions are sized for it, docs/customer-auth.md), the parameters written beside the hash so
 * that raising them later rehashes each password at its next successful login. Passwords are
 * NFKC-normalised first (the same password typed on another keyboard hashes the same) and
 * compared in constant time. Node's own scrypt: no dependency, and it runs off the event loop.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { config } from '#shared/config';
import { ValidationError } from '#shared/errors';
import { COMMON_PASSWORDS } from './common-passwords';

export interface ScryptParameters {
  /** log2 of N, the CPU/memory cost. */
  logN: number;
  r: number;
  p: number;
}

/** OWASP's minimum for scrypt (2025 cheat sheet): N = 2^17, r = 8, p = 1. */
export const CURRENT_PARAMETERS: ScryptParameters = { logN: 17, r: 8, p: 1 };

/**
 * What hashes are made and judged with: CURRENT_PARAMETERS, but for a cheaper N (2^10 to 2^16) in
 * the tests' local stack, which sets TEST_SCRYPT_LOG_N — honoured only with LOCAL_MODE=true, never
 * set on AWS (test/infra/api.test.ts checks that neither variable reaches a function).
 */
export function currentParameters(): ScryptParameters {
  const logN = Number(process.env.TEST_SCRYPT_LOG_N);
  const cheaper = config().localMode && Number.isInteger(logN) && logN >= 10 && logN < CURRENT_PARAMETERS.logN;
  return cheaper ? { ...CURRENT_PARAMETERS, logN } : CURRENT_PARAMETERS;
}

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

const SALT_BYTES = 16;
const KEY_BYTES = 32;

const scrypt = (password: string, salt: Buffer, { logN, r, p }: ScryptParameters): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const N = 2 ** logN;
    // scrypt needs 128 × N × r bytes; Node refuses more than `maxmem` (32 MiB by default).
    const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
    scryptCallback(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

const encode = (bytes: Buffer) => bytes.toString('base64url');

/** `scrypt$<logN>$<r>$<p>$<salt>$<hash>` (base64url). */
export async function hashPassword(password: string, parameters: ScryptParameters = currentParameters()): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, parameters);
  return ['scrypt', parameters.logN, parameters.r, parameters.p, encode(salt), encode(key)].join('$');
}

function parse(stored: string): { parameters: ScryptParameters; salt: Buffer; key: Buffer } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![logN, r, p].every((value) => Number.isSafeInteger(value) && value > 0) || logN > 22) return undefined;
  return { parameters: { logN, r, p }, salt: Buffer.from(parts[4]!, 'base64url'), key: Buffer.from(parts[5]!, 'base64url') };
}

const weaker = (stored: ScryptParameters, wanted: ScryptParameters): boolean =>
  stored.logN < wanted.logN || stored.r < wanted.r || stored.p < wanted.p;

/**
 * Whether `password` matches `stored`, and whether the stored hash should be replaced (its
 * parameters are below the current ones). A malformed stored value never matches.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  current: ScryptParameters = currentParameters(),
): Promise<{ ok: boolean; rehash: boolean }> {
  const parsed = parse(stored);
  if (!parsed) return { ok: false, rehash: false };
  const key = await scrypt(password, parsed.salt, parsed.parameters);
  const ok = key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
  return { ok, rehash: ok && weaker(parsed.parameters, current) };
}

/**
 * Spends the time a real verification would, for an email without an account: an unknown email
 * and a wrong password must not be told apart by how long the answer takes.
 */
export async function verifyNothing(password: string, parameters: ScryptParameters = currentParameters()): Promise<void> {
  await scrypt(password, Buffer.alloc(SALT_BYTES), parameters);
}

/** Why a new password is refused, or undefined: length (counted in characters) and the common-password list. */
export function passwordProblem(password: string, context: { email?: string } = {}): string | undefined {
  const length = [...password.normalize('NFKC')].length;
  if (length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered)) return 'is one of the most common passwords: choose another';
  if (context.email && lowered === context.email.toLowerCase()) return 'must not be the email address';
  return undefined;
}

/** 422 naming `password` when a new password is refused. */
export function assertPassword(password: string, email?: string): void {
  const problem = passwordProblem(password, { email });
  if (problem) throw new ValidationError('The password is not accepted', [{ field: 'password', message: problem }]);
}

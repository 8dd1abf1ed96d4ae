/**
 * A customer's login and the one-time codes mailed to customers (password reset, registration). The login — the
 * password hash (passwords.ts) — is an item in the customer's own partition, so deleting the
 * customer deletes it in the same transaction (shared/customers/repository.ts) and one customer
 * has at most one. The login also holds two **generations** that end things in one write however
 * many there are (session-rules.ts): sessions of an older `session_generation` than the login's
 * have ended (but `kept_session`, the one a password change was made from), and so have reset codes
 * of an older `code_generation`. A password change or reset moves both in the one conditional
 * update that writes the new hash.
 *
 * Codes are opaque (256 bits), stored as their SHA-256, valid 30 minutes and used at most once:
 * the use is conditional (`used_at` not set, not expired), so two requests with one code cannot
 * both succeed. The items are stored.ts's, written by repository.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import type { TransactionPart, TransactItem } from '#shared/db/table';
import { ConflictError, UnauthorizedError } from '#shared/errors';
import * as repo from './repository';
import { loginPut as storedLoginPut, registrationUse, type LoginRecord, type RegistrationRecord, type ResetCodeRecord } from './stored';

export { readLogin } from './repository';

/** How long a mailed code is valid. */
export const CODE_MINUTES = 30;

/** A customer's login as stored (stored.ts). */
export type Login = LoginRecord;

/** A new login: generations 0, no session kept. */
export const newLogin = (customerId: number, passwordHash: string, now: Date): LoginRecord => ({
  customer_id: customerId,
  password_hash: passwordHash,
  session_generation: 0,
  kept_session: null,
  code_generation: 0,
  created_at: now.toISOString(),
  updated_at: now.toISOString(),
});

/** The put of a new login (generations 0): the caller's transaction adds what must hold with it. */
export const loginPut = (tenant: Tenant, customerId: number, passwordHash: string, now: Date): TransactItem =>
  storedLoginPut(tenant, newLogin(customerId, passwordHash, now));

/** Gives an existing customer a login: 404 without the customer, 409 when it has one already. */
export async function createLogin(tenant: Tenant, customerId: number, passwordHash: string, now = new Date()): Promise<void> {
  await repo.insertLogin(tenant, newLogin(customerId, passwordHash, now));
}

/**
 * Replaces the hash of the password just verified with one of raised parameters (a rehash at
 * login): only while the login still holds that hash, so a change made meanwhile is never undone.
 */
export async function rehashPassword(tenant: Tenant, customerId: number, verifiedHash: string, passwordHash: string, now = new Date()) {
  // A change made meanwhile won: its hash stays, and nothing more is to be done.
  await repo.replacePasswordHash(tenant, customerId, verifiedHash, passwordHash, now);
}

/**
 * A password change: the new hash, every other session and every reset code ended — one
 * conditional update of the login, whatever their number. Conditional on the login still holding
 * the hash the current password was verified against: a change or reset made meanwhile is a 409.
 */
export async function changePasswordHash(
  tenant: Tenant,
  customerId: number,
  change: { verifiedHash: string; passwordHash: string; keepSession: string | null },
  now = new Date(),
): Promise<void> {
  if (!(await repo.changeLoginPassword(tenant, customerId, change, now))) {
    throw new ConflictError('The password was changed meanwhile: sign in again');
  }
}

// One-time codes

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new code: `<prefix>_` and 256 random bits, base64url. */
const newCode = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** When a code issued at `now` stops being valid, and when its item leaves the table (the TTL, an hour later, epoch seconds). */
function expiryOf(now: Date): { valid_until: string; expires_at: number } {
  const expires = new Date(now.getTime() + CODE_MINUTES * 60_000);
  return { valid_until: expires.toISOString(), expires_at: Math.floor(expires.getTime() / 1000) + 3600 };
}

/** Whether a code's item can be used at `now`: neither used nor expired. */
const usable = (code: { used_at: string | null; valid_until: string }, now: Date): boolean =>
  code.used_at === null && code.valid_until > now.toISOString();

/**
 * A new password-reset code for the login (the code itself goes only into the email), of the
 * login's current code generation. Without a login, a code bound to no one — never mailed, never
 * usable — so that a request for an unknown email writes what a request for a known one writes.
 */
export async function issueResetToken(
  tenant: Tenant,
  login: Pick<Login, 'customer_id' | 'code_generation'> | undefined,
  now = new Date(),
): Promise<{ token: string; expiresAt: string }> {
  const token = newCode('prt');
  const record: ResetCodeRecord = {
    customer_id: login ? login.customer_id : null,
    generation: login ? login.code_generation : null,
    ...expiryOf(now),
    used_at: null,
  };
  await repo.insertResetCode(tenant, hashOf(token), record);
  return { token, expiresAt: record.valid_until };
}

/**
 * Sets a new password with a reset code, once: the code's use and the login's new password (every
 * session and every other code ended) in one transaction — conditional on the code being unused
 * and unexpired, and on its generation being the login's (a code used since, or a password change,
 * ended it). Answers the customer, or undefined for a code that does not hold.
 */
export async function resetPassword(tenant: Tenant, token: string, passwordHash: string, now = new Date()): Promise<number | undefined> {
  const codeHash = hashOf(token);
  const code = await repo.readResetCode(tenant, codeHash);
  if (!code || !usable(code, now) || code.customer_id === null) return undefined;
  const customerId = code.customer_id;
  const done = await repo.resetPasswordWithCode(tenant, codeHash, { customerId, generation: code.generation ?? 0 }, passwordHash, now);
  return done ? customerId : undefined;
}

/** A registration waiting for the code mailed to its address: what was registered, the password only as its hash. */
export type PendingRegistration = Pick<RegistrationRecord, 'email' | 'name' | 'password_hash'>;

/**
 * A new registration code holding what was registered (the code itself goes only into the email):
 * no customer and no login exist for it until the code comes back (registration.ts).
 */
export async function issueRegistrationCode(
  tenant: Tenant,
  registration: PendingRegistration,
  now = new Date(),
): Promise<{ code: string; expiresAt: string }> {
  const code = newCode('reg');
  const record: RegistrationRecord = { ...registration, ...expiryOf(now), used_at: null };
  await repo.insertRegistration(tenant, hashOf(code), record);
  return { code, expiresAt: record.valid_until };
}

export const invalidRegistrationCode = () => new UnauthorizedError('The registration code is not valid (wrong, used or expired)');

/**
 * The registration a code holds while it is usable, and the transaction part that uses the code
 * once — a 401 when it was used meanwhile or has expired — for the transaction that makes the login.
 */
export async function readRegistration(
  tenant: Tenant,
  code: string,
  now = new Date(),
): Promise<{ registration: PendingRegistration; use: TransactionPart } | undefined> {
  const codeHash = hashOf(code);
  const stored = await repo.readRegistration(tenant, codeHash);
  if (!stored || !usable(stored, now)) return undefined;
  return {
    registration: { email: stored.email, name: stored.name, password_hash: stored.password_hash },
    use: { item: registrationUse(tenant, codeHash, now), onConditionFailure: invalidRegistrationCode },
  };
}

/**
 * Customer accounts: register, log in, refresh, log out, change and reset the password. Each flow
 * is the composition of the modules beside this one — passwords (scrypt), tokens and keys (ES256
 * JWTs), refresh-token families, the lockout count, logins and reset tokens — and answers the same
 * 401 for every credential that does not authenticate, in the same time (an unknown email costs
 * the same scrypt work as a wrong password), so nothing tells whether an email has an account.
 */
import type { Tenant } from '#shared/auth/principal';
import { config } from '#shared/config';
import { findCustomerIdByEmail } from '#shared/customers/repository';
import { createCustomer, getCustomer } from '#shared/customers/service';
import { ConflictError, UnauthorizedError, ValidationError } from '#shared/errors';
import { sendMail } from '#shared/mail/send';
import { consumeResetToken, createLogin, issueResetToken, readLogin, replacePasswordHash } from './credentials';
import { signingKeys } from './key-store';
import { assertNotLockedOut, clearFailures, recordFailure } from './lockout';
import { hashPassword, passwordProblem, verifyNothing, verifyPassword } from './passwords';
import { familyOf, revokeCustomerFamilies, revokeFamily, rotate, RefreshRefused, startFamily } from './refresh-tokens';
import { issueAccessToken, type TokenContext } from './tokens';

type Customer = Awaited<ReturnType<typeof getCustomer>>;

export interface Session {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  customer: Customer;
}

const BAD_CREDENTIALS = 'The email or the password is wrong';

/**
 * `iss` and `aud` of this stage's tokens. Names, not the API's URL: the URL is only known once the
 * stage is deployed, and the functions that sign are part of that deployment.
 */
export const tokenContext = (): TokenContext => ({
  issuer: process.env.TOKEN_ISSUER || `urn:print-shop-api:${config().stage}`,
  audience: process.env.TOKEN_AUDIENCE || `urn:print-shop-api:${config().stage}:customers`,
});

function assertPassword(password: string, email?: string): void {
  const problem = passwordProblem(password, { email });
  if (problem) throw new ValidationError('The password is not accepted', [{ field: 'password', message: problem }]);
}

async function sessionFor(tenant: Tenant, customerId: number, now: Date): Promise<Session> {
  const [family, keys, customer] = await Promise.all([
    startFamily(tenant, customerId, now),
    signingKeys(),
    getCustomer(tenant, customerId),
  ]);
  const access = await issueAccessToken(customerId, tenant, keys, tokenContext(), now, family.familyId);
  return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, refresh_token: family.refreshToken, customer };
}

/**
 * `POST /v1/auth/register`: a new customer with a login, or a login for the existing customer of
 * that email who has none yet. An email that has a login answers 409 with nothing more than that.
 */
export async function register(
  tenant: Tenant,
  input: { email: string; password: string; name: string },
  now = new Date(),
): Promise<Session> {
  assertPassword(input.password, input.email);
  const passwordHash = await hashPassword(input.password);
  const taken = () => new ConflictError('An account with this email exists: log in, or reset its password');
  let customerId = await findCustomerIdByEmail(tenant, input.email);
  if (customerId === undefined) {
    try {
      customerId = (await createCustomer(tenant, { name: input.name, email: input.email })).id;
    } catch (error) {
      // Registered by a concurrent request a moment ago.
      if (error instanceof ConflictError) throw taken();
      throw error;
    }
  }
  try {
    await createLogin(tenant, customerId, passwordHash, now);
  } catch (error) {
    if (error instanceof ConflictError) throw taken();
    throw error;
  }
  return sessionFor(tenant, customerId, now);
}

/** `POST /v1/auth/login`: 401 alike for an unknown email and a wrong password; 429 while the email is locked out. */
export async function login(tenant: Tenant, input: { email: string; password: string }, now = new Date()): Promise<Session> {
  await assertNotLockedOut(tenant, input.email, now);
  const customerId = await findCustomerIdByEmail(tenant, input.email);
  const stored = customerId === undefined ? undefined : await readLogin(tenant, customerId);
  if (!stored) {
    await verifyNothing(input.password);
    await recordFailure(tenant, input.email, now);
    throw new UnauthorizedError(BAD_CREDENTIALS);
  }
  const { ok, rehash } = await verifyPassword(input.password, stored.password_hash);
  if (!ok) {
    await recordFailure(tenant, input.email, now);
    throw new UnauthorizedError(BAD_CREDENTIALS);
  }
  await clearFailures(tenant, input.email);
  // Stored with weaker parameters than today's: rehashed now that the password is at hand.
  if (rehash) await replacePasswordHash(tenant, stored.customer_id, await hashPassword(input.password), now);
  return sessionFor(tenant, stored.customer_id, now);
}

/** `POST /v1/auth/refresh`: a new access token and a new refresh token; a reused one revokes the family (401). */
export async function refresh(tenant: Tenant, refreshToken: string, now = new Date()): Promise<Omit<Session, 'customer'>> {
  try {
    const next = await rotate(tenant, refreshToken, now);
    const access = await issueAccessToken(next.customerId, tenant, await signingKeys(), tokenContext(), now, next.familyId);
    return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, refresh_token: next.refreshToken };
  } catch (error) {
    if (error instanceof RefreshRefused) throw new UnauthorizedError('The refresh token is not valid: log in again');
    throw error;
  }
}

/** `POST /v1/auth/logout`: revokes the refresh token's family (an unknown token changes nothing). */
export async function logout(tenant: Tenant, refreshToken: string, now = new Date()): Promise<void> {
  const familyId = await familyOf(tenant, refreshToken);
  if (familyId) await revokeFamily(tenant, familyId, now);
}

/** `POST /v1/auth/password`: the current password, then the new one; every other session is revoked. */
export async function changePassword(
  tenant: Tenant,
  customerId: number,
  sessionId: string | null,
  input: { current_password: string; new_password: string },
  now = new Date(),
): Promise<void> {
  const stored = await readLogin(tenant, customerId);
  if (!stored || !(await verifyPassword(input.current_password, stored.password_hash)).ok) {
    throw new UnauthorizedError('The current password is wrong');
  }
  assertPassword(input.new_password);
  await replacePasswordHash(tenant, customerId, await hashPassword(input.new_password), now);
  await revokeCustomerFamilies(tenant, customerId, sessionId ?? undefined, now);
}

/**
 * `POST /v1/auth/password-reset`: always the same answer; when the email has a login, a
 * single-use token valid 30 minutes goes to that email (and only there).
 */
export async function requestPasswordReset(tenant: Tenant, email: string, now = new Date()): Promise<void> {
  const customerId = await findCustomerIdByEmail(tenant, email);
  if (customerId === undefined || !(await readLogin(tenant, customerId))) return;
  const { token, expiresAt } = await issueResetToken(tenant, customerId, now);
  await sendMail({
    to: email,
    subject: `${tenant.mode === 'test' ? '[TEST] ' : ''}Reset your password`,
    text: [
      'Someone asked to reset the password of your account. If it was you, use this code within 30 minutes:',
      '',
      token,
      '',
      `It works once and expires at ${expiresAt}. If it was not you, ignore this message: your password stays as it is.`,
    ].join('\n'),
  });
}

/** `POST /v1/auth/password-reset/confirm`: a valid token sets the password once and revokes every session. */
export async function confirmPasswordReset(tenant: Tenant, input: { token: string; password: string }, now = new Date()): Promise<void> {
  assertPassword(input.password);
  const customerId = await consumeResetToken(tenant, input.token, now);
  if (customerId === undefined) throw new UnauthorizedError('The reset code is not valid (wrong, used or expired)');
  await replacePasswordHash(tenant, customerId, await hashPassword(input.password), now);
  await revokeCustomerFamilies(tenant, customerId, undefined, now);
}

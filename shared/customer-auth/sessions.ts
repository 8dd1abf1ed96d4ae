/**
 * The flows that sign in (login, refresh): each ends in a session — an access token
 * signed with the stage's key (key-store.ts, the private half opened with the stage's secrets
 * key) and a refresh token of a family. Apart from service.ts, so that only the functions that
 * sign carry the key store and the KMS client (and only their roles may use the key).
 */
import type { Tenant } from '#shared/auth/principal';
import { getCustomerDetails } from '#shared/customers/service';
import { UnauthorizedError } from '#shared/errors';
import { rehashPassword, type Login } from './credentials';
import { findLoginByEmail } from './find-login';
import { signingKeys } from './key-store';
import { ownView, type OwnCustomer } from './own-view';
import { clearFailures, reserveAttempt } from './lockout';
import { hashPassword, verifyNothing, verifyPassword } from './passwords';
import { RefreshRefused, rotate, startFamily } from './refresh-tokens';
import { issueAccessToken, tokenContext } from './tokens';

export interface Session {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  /** The customer's own view (own-view.ts): no shop notes. */
  customer: OwnCustomer;
}

const BAD_CREDENTIALS = 'The email or the password is wrong';

/** A new session of the login: a family of the login's current session generation, its first tokens, the customer's own view. */
async function sessionFor(tenant: Tenant, login: Login, now: Date): Promise<Session> {
  const customerId = login.customer_id;
  const [family, keys, customer] = await Promise.all([
    startFamily(tenant, customerId, now, login.session_generation),
    signingKeys(),
    getCustomerDetails(tenant, customerId),
  ]);
  const access = await issueAccessToken(customerId, tenant, keys, tokenContext(), now, family.familyId);
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    refresh_token: family.refreshToken,
    customer: ownView(customer),
  };
}

/** `POST /v1/auth/login`: 401 alike for an unknown email and a wrong password; 429 once the email's 10 checks are spent. */
export async function login(tenant: Tenant, input: { email: string; password: string }, now = new Date()): Promise<Session> {
  // One of the email's 10 checks is reserved before the password is checked (429 when none is left);
  // a wrong password leaves it counted, a right one clears the count.
  await reserveAttempt(tenant, input.email, now);
  // The same reads whatever the email (find-login.ts), and the same scrypt work below.
  const { login: stored } = await findLoginByEmail(tenant, input.email);
  if (!stored) {
    await verifyNothing(input.password);
    throw new UnauthorizedError(BAD_CREDENTIALS);
  }
  const { ok, rehash } = await verifyPassword(input.password, stored.password_hash);
  if (!ok) throw new UnauthorizedError(BAD_CREDENTIALS);
  await clearFailures(tenant, input.email);
  // Stored with weaker parameters than today's: rehashed now that the password is at hand.
  if (rehash) await rehashPassword(tenant, stored.customer_id, stored.password_hash, await hashPassword(input.password), now);
  return sessionFor(tenant, stored, now);
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

/**
 * Customer accounts: the flows that do not sign — logout, the customer's own record, password
 * change, password reset and its confirmation (registration: registration.ts; signing in:
 * sessions.ts). Every credential that does not authenticate answers the same 401, and a reset
 * request the same 202 whether or not the email has an account.
 */
import type { Tenant } from '#shared/auth/principal';
import { getCustomerDetails, updateCustomer } from '#shared/customers/service';
import { UnauthorizedError, ValidationError } from '#shared/errors';
import { sendMail } from '#shared/mail/send';
import { changePasswordHash, issueResetToken, resetPassword } from './credentials';
import { findLoginByEmail } from './find-login';
import { ownView, type OwnCustomer } from './own-view';
import { assertPassword, hashPassword, verifyPassword } from './passwords';
import { familyOf, revokeFamily } from './refresh-tokens';
import { readLogin } from './repository';

/** `POST /v1/auth/logout`: revokes the refresh token's family (an unknown token changes nothing). */
export async function logout(tenant: Tenant, refreshToken: string, now = new Date()): Promise<void> {
  const familyId = await familyOf(tenant, refreshToken);
  if (familyId) await revokeFamily(tenant, familyId, now);
}

/** `GET /v1/auth/me`: the signed-in customer's own view of their record (no shop notes). */
export const profile = async (tenant: Tenant, customerId: number): Promise<OwnCustomer> =>
  ownView(await getCustomerDetails(tenant, customerId));

/** `PUT /v1/auth/me`: name, phone, company (`customer.updated`); the email is the login and stays. Answers the own view. */
export const updateProfile = async (
  tenant: Tenant,
  customerId: number,
  changes: { name?: string | undefined; phone?: string | null | undefined; company?: string | null | undefined },
): Promise<OwnCustomer> => ownView(await updateCustomer(tenant, customerId, changes));

/**
 * `POST /v1/auth/password`: the current password, then the new one. Every other session and every
 * outstanding reset code end in the same one update of the login (its generations, session-rules.ts);
 * the session of the access token that made the change (`sid`) goes on. A wrong current password is
 * a 422 on that field, not a 401: the access token did authenticate.
 */
export async function changePassword(
  tenant: Tenant,
  customerId: number,
  sessionId: string | null,
  input: { current_password: string; new_password: string },
  now = new Date(),
): Promise<void> {
  const stored = await readLogin(tenant, customerId);
  if (!stored || !(await verifyPassword(input.current_password, stored.password_hash)).ok) {
    throw new ValidationError('The current password is wrong', [{ field: 'current_password', message: 'is not the current password' }]);
  }
  assertPassword(input.new_password);
  await changePasswordHash(
    tenant,
    customerId,
    { verifiedHash: stored.password_hash, passwordHash: await hashPassword(input.new_password), keepSession: sessionId },
    now,
  );
}

/**
 * `POST /v1/auth/password-reset`: always the same answer, after the same work whatever the email —
 * the same two reads (find-login.ts), one code written, one mail sent. With a login, the mail holds
 * a single-use code valid 30 minutes; without one, the code is bound to no one and the mail says
 * that the address has no account. Either mail goes to that address only.
 */
export async function requestPasswordReset(tenant: Tenant, email: string, now = new Date()): Promise<void> {
  const { login } = await findLoginByEmail(tenant, email);
  const { token, expiresAt } = await issueResetToken(tenant, login, now);
  await sendMail(login ? resetMail(tenant, email, token, expiresAt) : noAccountMail(tenant, email));
}

const subjectOf = (tenant: Tenant, subject: string) => `${tenant.mode === 'test' ? '[TEST] ' : ''}${subject}`;

const resetMail = (tenant: Tenant, email: string, code: string, expiresAt: string) => ({
  to: email,
  subject: subjectOf(tenant, 'Reset your password'),
  text: [
    'Someone asked to reset the password of your account. If it was you, use this code within 30 minutes:',
    '',
    code,
    '',
    `It works once and expires at ${expiresAt}. If it was not you, ignore this message: your password stays as it is.`,
  ].join('\n'),
});

const noAccountMail = (tenant: Tenant, email: string) => ({
  to: email,
  subject: subjectOf(tenant, 'Reset your password'),
  text: [
    'Someone asked to reset the password of an account with this email address, but there is no account with a',
    'password for this address. If it was you, you can register with this address instead.',
    '',
    'If it was not you, ignore this message.',
  ].join('\n'),
});

/**
 * `POST /v1/auth/password-reset/confirm`: a valid code sets the password once and, in the same
 * transaction, ends every session and every other reset code of the customer.
 */
export async function confirmPasswordReset(tenant: Tenant, input: { token: string; password: string }, now = new Date()): Promise<void> {
  assertPassword(input.password);
  const customerId = await resetPassword(tenant, input.token, await hashPassword(input.password), now);
  if (customerId === undefined) throw new UnauthorizedError('The reset code is not valid (wrong, used or expired)');
}

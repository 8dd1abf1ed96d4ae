/**
 * Registration with proof of the mailbox. `POST /v1/auth/register` makes nothing: it holds the
 * registration (the password as its scrypt hash) under a single-use code mailed to the address,
 * and answers the same whatever the address — unknown, a customer the shop made or a guest checkout
 * left (no login), a customer with a login — after the same work (one scrypt hash, the same two
 * reads, one code written, one mail). An address with a login gets, instead of a registration code,
 * a note that it has an account, with a password-reset code.
 *
 * `POST /v1/auth/register/confirm` with the code attaches the login — to the customer who has the
 * address by then, or to a new customer — in one transaction with the code's use: two
 * confirmations of one code make one login (the code's condition), and a login that appeared
 * meanwhile is never replaced (the login's condition: 409). Only the holder of the mailbox learns
 * that the address had an account, and only then does anything of the record show (its own view).
 */
import type { Tenant } from '#shared/auth/principal';
import { findCustomerIdByEmail } from '#shared/customers/repository';
import { customerCreation, getCustomerDetails } from '#shared/customers/service';
import { ConflictError } from '#shared/errors';
import { sendMail } from '#shared/mail/send';
import { invalidRegistrationCode, issueRegistrationCode, issueResetToken, newLogin, readRegistration } from './credentials';
import { findLoginByEmail } from './find-login';
import { ownView, type OwnCustomer } from './own-view';
import { assertPassword, hashPassword } from './passwords';
import { attachRegisteredLogin, insertRegisteredCustomer } from './repository';

/** What `POST /v1/auth/register` answers, whatever the address. */
export interface RegistrationPending {
  status: 'pending_confirmation';
}

/**
 * `POST /v1/auth/register`: the registration held under a code mailed to the address; the same
 * answer and the same work whatever the address is (see above). A refused password is a 422
 * before anything is read: it depends on what was sent only.
 */
export async function register(
  tenant: Tenant,
  input: { email: string; password: string; name: string },
  now = new Date(),
): Promise<RegistrationPending> {
  assertPassword(input.password, input.email);
  const passwordHash = await hashPassword(input.password);
  const { login } = await findLoginByEmail(tenant, input.email);
  if (login) {
    const { token, expiresAt } = await issueResetToken(tenant, login, now);
    await sendMail(accountExistsMail(tenant, input.email, token, expiresAt));
  } else {
    const { code, expiresAt } = await issueRegistrationCode(
      tenant,
      { email: input.email, name: input.name, password_hash: passwordHash },
      now,
    );
    await sendMail(registrationMail(tenant, input.email, code, expiresAt));
  }
  return { status: 'pending_confirmation' };
}

/** The email's marker moved (a customer made, or the address given to another) between the read and the write. */
class EmailMoved extends Error {}

/** Reads of the address's owner and writes attempted before giving up on an address that keeps moving. */
const CONFIRM_ATTEMPTS = 3;

const accountExists = () => new ConflictError('An account with this email exists: log in, or reset its password');

/**
 * `POST /v1/auth/register/confirm`: the login of a confirmed registration, attached in one
 * transaction with the code's use — to the customer the address belongs to now (while it still
 * does, and has no login: else 409), or to a new customer of the registered name and address
 * (`customer.created`). A code that is wrong, used (also by a concurrent confirmation) or expired
 * answers 401. Answers the customer's own view.
 */
export async function confirmRegistration(tenant: Tenant, code: string, now = new Date()): Promise<OwnCustomer> {
  const pending = await readRegistration(tenant, code, now);
  if (!pending) throw invalidRegistrationCode();
  const { registration, use } = pending;
  for (let attempt = 1; attempt <= CONFIRM_ATTEMPTS; attempt++) {
    try {
      const customerId = await findCustomerIdByEmail(tenant, registration.email, true);
      if (customerId === undefined) {
        const { customer, writes } = await customerCreation(
          tenant,
          { name: registration.name, email: registration.email },
          () => new EmailMoved(),
        );
        await insertRegisteredCustomer(tenant, use, writes, newLogin(customer.id, registration.password_hash, now));
        return ownView(customer);
      }
      await attachRegisteredLogin(
        tenant,
        use,
        newLogin(customerId, registration.password_hash, now),
        registration.email,
        accountExists,
        () => new EmailMoved(),
      );
      return ownView(await getCustomerDetails(tenant, customerId));
    } catch (error) {
      if (!(error instanceof EmailMoved)) throw error;
    }
  }
  throw new ConflictError('The customer of this email changed meanwhile; confirm again');
}

const subjectOf = (tenant: Tenant, subject: string) => `${tenant.mode === 'test' ? '[TEST] ' : ''}${subject}`;

const registrationMail = (tenant: Tenant, email: string, code: string, expiresAt: string) => ({
  to: email,
  subject: subjectOf(tenant, 'Confirm your registration'),
  text: [
    'Someone registered an account with this email address. If it was you, confirm it with this code within 30 minutes:',
    '',
    code,
    '',
    `It works once and expires at ${expiresAt}. If it was not you, ignore this message: without the code no account is made.`,
  ].join('\n'),
});

const accountExistsMail = (tenant: Tenant, email: string, resetCode: string, expiresAt: string) => ({
  to: email,
  subject: subjectOf(tenant, 'You already have an account'),
  text: [
    'Someone tried to register with this email address, but you already have an account: log in with your password.',
    '',
    'If you forgot it, this code sets a new one within 30 minutes (as a password reset would):',
    '',
    resetCode,
    '',
    `It works once and expires at ${expiresAt}. If it was not you, ignore this message: nothing changes.`,
  ].join('\n'),
});

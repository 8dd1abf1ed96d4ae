import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { publishedKeys } from '#shared/customer-auth/published-keys';
import { confirmRegistration, register } from '#shared/customer-auth/registration';
import { changePassword, confirmPasswordReset, logout, requestPasswordReset } from '#shared/customer-auth/service';
import { login, refresh } from '#shared/customer-auth/sessions';
import { tokenContext, verifyAccessToken } from '#shared/customer-auth/tokens';
import { RateLimitedError, UnauthorizedError, ValidationError } from '#shared/errors';
import type { Tenant } from '#shared/auth/principal';
import { mailMark, mailsTo, registrationCodeFor } from '#test/support/customer-accounts';
import { uniqueEmail } from '#test/support/http';
import { mailbox } from '#test/support/mail';
import { freshShop } from '#test/support/webhooks';

/** The customer-account flows as domain calls against the local engines (the routes come with the API split). */
describe('customer account flows', () => {
  /** Registers and confirms with the mailed code: the customer's own view. */
  const signUp = async (tenant: Tenant, input: { email: string; password: string; name: string }) => {
    const mark = mailMark();
    expect(await register(tenant, input)).toEqual({ status: 'pending_confirmation' });
    return confirmRegistration(tenant, registrationCodeFor(input.email, mark)!);
  };

  const rejectsWith = async (work: Promise<unknown>, type: new (...args: never[]) => Error) => {
    const error = await work.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(type);
    return error as Error;
  };

  it('registers, logs in and issues a token that a standard JOSE verifier accepts against the published keys', async () => {
    const shop = await freshShop('Auth Shop');
    const email = uniqueEmail('auth');
    const customer = await signUp(shop.tenant, { email, password: 'Łódź ist schön 2026', name: 'Zofia' });
    expect(customer).toMatchObject({ email, name: 'Zofia' });
    const session = await login(shop.tenant, { email, password: 'Łódź ist schön 2026' });
    expect(session).toMatchObject({ token_type: 'Bearer', expires_in: 900, customer: { id: customer.id, email } });
    const { payload } = await jwtVerify(session.access_token, createLocalJWKSet(await publishedKeys()), {
      algorithms: ['ES256'],
      issuer: tokenContext().issuer,
      audience: tokenContext().audience,
    });
    expect(payload).toMatchObject({ sub: String(session.customer.id), acct: shop.accountId, mode: 'test', scope: 'customer' });

    // The same email again: the same answer, and a note to the address (its password stays).
    const mark = mailMark();
    expect(await register(shop.tenant, { email, password: 'another good password', name: 'Zofia' })).toEqual({
      status: 'pending_confirmation',
    });
    expect(mailsTo(email, mark)[0]?.text).toContain('already have an account');
    // A code used twice at once makes one login; the other is refused.
    const twice = uniqueEmail('auth');
    const before = mailMark();
    await register(shop.tenant, { email: twice, password: 'a good long password', name: 'T' });
    const code = registrationCodeFor(twice, before)!;
    const results = await Promise.allSettled([confirmRegistration(shop.tenant, code), confirmRegistration(shop.tenant, code)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')?.reason).toBeInstanceOf(UnauthorizedError);
    await rejectsWith(register(shop.tenant, { email: uniqueEmail('auth'), password: 'password123', name: 'X' }), ValidationError);
    const again = await login(shop.tenant, { email, password: 'Łódź ist schön 2026' });
    expect(again.customer.id).toBe(session.customer.id);
    const wrong = await rejectsWith(login(shop.tenant, { email, password: 'not the password' }), UnauthorizedError);
    const unknown = await rejectsWith(
      login(shop.tenant, { email: uniqueEmail('nobody'), password: 'not the password' }),
      UnauthorizedError,
    );
    expect(unknown.message).toBe(wrong.message);
  });

  it('rotates refresh tokens; reusing the old one fails and ends the newer one too; logout ends a session', async () => {
    const shop = await freshShop('Refresh Shop');
    const email = uniqueEmail('refresh');
    await signUp(shop.tenant, { email, password: 'correct horse battery', name: 'R' });
    const session = await login(shop.tenant, { email, password: 'correct horse battery' });
    const next = await refresh(shop.tenant, session.refresh_token);
    expect(next.refresh_token).not.toBe(session.refresh_token);
    expect((await verifyAccessToken(next.access_token, await publishedKeys(), tokenContext())).customerId).toBe(session.customer.id);
    await rejectsWith(refresh(shop.tenant, session.refresh_token), UnauthorizedError);
    await rejectsWith(refresh(shop.tenant, next.refresh_token), UnauthorizedError);

    const other = await login(shop.tenant, { email, password: 'correct horse battery' });
    await logout(shop.tenant, other.refresh_token);
    await rejectsWith(refresh(shop.tenant, other.refresh_token), UnauthorizedError);
  });

  it('locks an email out after ten wrong passwords: the eleventh answers 429, another email is unaffected', async () => {
    const shop = await freshShop('Lockout Shop');
    const email = uniqueEmail('lock');
    const other = uniqueEmail('lock');
    await signUp(shop.tenant, { email, password: 'correct horse battery', name: 'L' });
    await signUp(shop.tenant, { email: other, password: 'correct horse battery', name: 'M' });
    for (let i = 0; i < 10; i++) await rejectsWith(login(shop.tenant, { email, password: `wrong password ${i}` }), UnauthorizedError);
    const locked = await rejectsWith(login(shop.tenant, { email, password: 'correct horse battery' }), RateLimitedError);
    expect((locked as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    await expect(login(shop.tenant, { email: other, password: 'correct horse battery' })).resolves.toMatchObject({ token_type: 'Bearer' });
  }, 60_000);

  it('mails a reset code that works once and ends every session; a password change ends the other sessions', async () => {
    const shop = await freshShop('Reset Shop');
    const email = uniqueEmail('reset');
    await signUp(shop.tenant, { email, password: 'correct horse battery', name: 'P' });
    const first = await login(shop.tenant, { email, password: 'correct horse battery' });
    await requestPasswordReset(shop.tenant, uniqueEmail('nobody')); // no account: the same answer (a note is mailed)
    const before = mailbox(process.env.MAIL_DIR!).length;
    await requestPasswordReset(shop.tenant, email);
    const mail = mailbox(process.env.MAIL_DIR!)
      .slice(before)
      .find((message) => message.header('to')?.includes(email));
    const token = /prt_[\w-]{43}/.exec(mail?.text ?? '')?.[0];
    expect(token).toBeDefined();
    await confirmPasswordReset(shop.tenant, { token: token!, password: 'a brand new password' });
    await rejectsWith(confirmPasswordReset(shop.tenant, { token: token!, password: 'yet another password' }), UnauthorizedError);
    await rejectsWith(refresh(shop.tenant, first.refresh_token), UnauthorizedError);
    await rejectsWith(login(shop.tenant, { email, password: 'correct horse battery' }), UnauthorizedError);

    const a = await login(shop.tenant, { email, password: 'a brand new password' });
    const b = await login(shop.tenant, { email, password: 'a brand new password' });
    const claims = await verifyAccessToken(a.access_token, await publishedKeys(), tokenContext());
    await changePassword(shop.tenant, a.customer.id, claims.sessionId, {
      current_password: 'a brand new password',
      new_password: 'the third password',
    });
    await rejectsWith(refresh(shop.tenant, b.refresh_token), UnauthorizedError);
    await expect(refresh(shop.tenant, a.refresh_token)).resolves.toMatchObject({ token_type: 'Bearer' });
  }, 60_000);
});

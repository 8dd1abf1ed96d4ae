import { createLocalJWKSet, jwtVerify } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { call, uniqueEmail } from '#test/support/http';
import { signUp } from '#test/support/customer-accounts';
import { mailbox } from '#test/support/mail';

/** Customer accounts over HTTP, as a storefront calls them: with a publishable key. */
describe('customer accounts over HTTP', () => {
  let storefront: string;
  let other: string;
  beforeAll(async () => {
    storefront = (await createAccount({ name: 'Storefront Shop', plan: 'enterprise' })).keys.publishable_test.key;
    other = (await createAccount({ name: 'Other Shop', plan: 'enterprise' })).keys.publishable_test.key;
  });

  it('registers and logs in, and the token verifies with jose against the public JWKS (also at /.well-known)', async () => {
    const email = uniqueEmail('storefront');
    const registered = await signUp(storefront, { email, password: 'Łódź ist schön 2026', name: 'Zofia' });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body.data).toMatchObject({ email, name: 'Zofia' });
    expect(JSON.stringify(registered.body)).not.toContain('scrypt');
    const loggedIn = await call('POST', '/v1/auth/login', { key: storefront, body: { email, password: 'Łódź ist schön 2026' } });
    expect(loggedIn.status).toBe(200);
    expect(loggedIn.body.data).toMatchObject({ token_type: 'Bearer', expires_in: 900, customer: { id: registered.body.data.id, email } });
    expect(loggedIn.headers.get('cache-control')).toBe('no-store');

    const jwks = await fetch(`${inject('fixtures').api}/v1/auth/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=300');
    const keys = (await jwks.json()) as { keys: Record<string, unknown>[] };
    // The alias through call(), so its answer is held to the document too.
    const wellKnown = await call('GET', '/.well-known/jwks.json', { key: null });
    expect(wellKnown.status).toBe(200);
    expect(wellKnown.body).toEqual(keys);
    for (const key of keys.keys) expect(key).not.toHaveProperty('d');
    const { payload } = await jwtVerify(loggedIn.body.data.access_token, createLocalJWKSet(keys), { algorithms: ['ES256'] });
    expect(payload).toMatchObject({ sub: String(registered.body.data.id), scope: 'customer', mode: 'test' });

    // The same email again: the same 202 as any registration (the address is told it has an account). Another tenant does not know it.
    const again = await call('POST', '/v1/auth/register', { key: storefront, body: { email, password: 'another good one', name: 'Z' } });
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual({ status: 'pending_confirmation' });
    const elsewhere = await call('POST', '/v1/auth/login', { key: other, body: { email, password: 'Łódź ist schön 2026' } });
    expect(elsewhere.status).toBe(401);
  });

  it('refreshes into a new pair; the old refresh token then answers 401 and ends the new one too', async () => {
    const email = uniqueEmail('storefront');
    const registered = await signUp(storefront, { email, password: 'correct horse battery', name: 'R' });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const { status, body } = await call('POST', '/v1/auth/login', { key: storefront, body: { email, password: 'correct horse battery' } });
    expect(status, JSON.stringify(body)).toBe(200);
    const next = await call('POST', '/v1/auth/refresh', { key: storefront, body: { refresh_token: body.data.refresh_token } });
    expect(next.status).toBe(200);
    expect(next.body.data.refresh_token).not.toBe(body.data.refresh_token);
    expect((await call('POST', '/v1/auth/refresh', { key: storefront, body: { refresh_token: body.data.refresh_token } })).status).toBe(
      401,
    );
    expect(
      (await call('POST', '/v1/auth/refresh', { key: storefront, body: { refresh_token: next.body.data.refresh_token } })).status,
    ).toBe(401);
  });

  it('answers wrong passwords and unknown emails alike, refuses weak passwords with details, and resets by mailed code', async () => {
    const email = uniqueEmail('storefront');
    expect((await signUp(storefront, { email, password: 'correct horse battery', name: 'P' })).status).toBe(201);
    const wrong = await call('POST', '/v1/auth/login', { key: storefront, body: { email, password: 'wrong password!' } });
    const unknown = await call('POST', '/v1/auth/login', {
      key: storefront,
      body: { email: uniqueEmail('nobody'), password: 'wrong password!' },
    });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    const weak = await call('POST', '/v1/auth/register', {
      key: storefront,
      body: { email: uniqueEmail('weak'), password: 'password123', name: 'W' },
    });
    expect(weak.status).toBe(422);
    expect(weak.body.error.details).toEqual([{ field: 'password', message: expect.stringContaining('common') }]);

    const before = mailbox(process.env.MAIL_DIR!).length;
    expect((await call('POST', '/v1/auth/password-reset', { key: storefront, body: { email } })).status).toBe(202);
    expect((await call('POST', '/v1/auth/password-reset', { key: storefront, body: { email: uniqueEmail('nobody') } })).status).toBe(202);
    const code = /prt_[\w-]{43}/.exec(
      mailbox(process.env.MAIL_DIR!)
        .slice(before)
        .find((mail) => mail.header('to')?.includes(email))?.text ?? '',
    )?.[0];
    expect(code).toBeDefined();
    const confirm = (password: string) =>
      call('POST', '/v1/auth/password-reset/confirm', { key: storefront, body: { token: code, password } });
    expect((await confirm('a brand new password')).status).toBe(200);
    expect((await confirm('another new password')).status).toBe(401);
    expect((await call('POST', '/v1/auth/login', { key: storefront, body: { email, password: 'a brand new password' } })).status).toBe(200);
  });
});

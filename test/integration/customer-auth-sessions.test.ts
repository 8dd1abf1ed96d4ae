import { beforeAll, describe, expect, it } from 'vitest';
import { createLogin } from '#shared/customer-auth/credentials';
import { signingKeys } from '#shared/customer-auth/key-store';
import { hashPassword } from '#shared/customer-auth/passwords';
import { startFamily } from '#shared/customer-auth/refresh-tokens';
import { issueAccessToken, tokenContext } from '#shared/customer-auth/tokens';
import { forEachLimit } from '#shared/async/for-each-limit';
import { call, dynamoDbWork, uniqueEmail, type ApiResponse } from '#test/support/http';
import { mailMark, mailsTo, PASSWORD, resetCodeFor } from '#test/support/customer-accounts';
import { freshShop } from '#test/support/shop';

/**
 * Sessions end when they must, whatever their number; guesses stop at the lockout however many
 * run at once; a reset code works once and takes the others with it; and login and reset answer
 * an unknown email as they answer a known one.
 */
describe('customer sessions and credentials under pressure', () => {
  let shop: { secret: string; publishable: string; tenant: { accountId: string; mode: 'test' } };

  beforeAll(async () => {
    // Hundreds of storefront calls from one address: beyond the per-client figure of a real plan (freshShop's limit is not).
    const created = await freshShop('Pressure Shop');
    shop = { secret: created.secretTest, publishable: created.publishableTest, tenant: created.tenant };
  });

  /** A customer with a login (as a confirmed registration leaves one), without the scrypt work of a registration. */
  async function customerWithLogin(password = PASSWORD) {
    const email = uniqueEmail('pressure');
    const made = await call('POST', '/v1/customers', { key: shop.secret, body: { name: 'Pressed', email } });
    expect(made.status).toBe(201);
    await createLogin(shop.tenant, made.body.data.id, await hashPassword(password));
    return { id: made.body.data.id as number, email };
  }

  const login = (email: string, password = PASSWORD) =>
    call('POST', '/v1/auth/login', { key: shop.publishable, body: { email, password } });
  const refresh = (token: string) => call('POST', '/v1/auth/refresh', { key: shop.publishable, body: { refresh_token: token } });
  const me = (token: string) => call('GET', '/v1/auth/me', { key: token });
  const mapLimit = async <T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> => {
    const results: R[] = [];
    await forEachLimit([...items.entries()], limit, async ([index, item]) => {
      results[index] = await work(item);
    });
    return results;
  };

  it('ends 200 sessions at once on a password change, in a bounded number of calls; the session that changed it stays', async () => {
    const customer = await customerWithLogin();
    const own = await login(customer.email);
    expect(own.status).toBe(200);
    // 200 more sessions (the newest one an attacker's), made directly: a login each would be 200 scrypt hashes.
    const keys = await signingKeys();
    const others = await mapLimit(
      Array.from({ length: 200 }, (_, index) => index),
      20,
      async () => {
        const family = await startFamily(shop.tenant, customer.id);
        const access = await issueAccessToken(customer.id, shop.tenant, keys, tokenContext(), new Date(), family.familyId);
        return { access: access.token, refresh: family.refreshToken };
      },
    );
    expect((await me(others.at(-1)!.access)).status).toBe(200);

    const changed = await call('POST', '/v1/auth/password', {
      key: own.body.data.access_token,
      body: { current_password: PASSWORD, new_password: 'a brand new passphrase' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // O(1): the login's one conditional update (with the reads it needs), however many sessions there are.
    expect(dynamoDbWork(changed).calls).toBeLessThanOrEqual(4);

    const refused = await mapLimit(others, 10, async (session) => [
      (await me(session.access)).status,
      (await refresh(session.refresh)).status,
    ]);
    expect(refused.flat().filter((status) => status !== 401)).toEqual([]);
    // The caller's own session goes on: its access token, and its refresh token.
    expect((await me(own.body.data.access_token)).status).toBe(200);
    const next = await refresh(own.body.data.refresh_token);
    expect(next.status).toBe(200);
    expect((await me(next.body.data.access_token)).status).toBe(200);
  }, 180_000);

  it('ends every session, the caller’s own too, on a password reset', async () => {
    const customer = await customerWithLogin();
    const sessions = [await login(customer.email), await login(customer.email)];
    const mark = mailMark();
    expect((await call('POST', '/v1/auth/password-reset', { key: shop.publishable, body: { email: customer.email } })).status).toBe(202);
    const reset = await call('POST', '/v1/auth/password-reset/confirm', {
      key: shop.publishable,
      body: { token: resetCodeFor(customer.email, mark), password: 'a brand new passphrase' },
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(dynamoDbWork(reset).calls).toBeLessThanOrEqual(3);
    for (const session of sessions) {
      expect((await me(session.body.data.access_token)).status).toBe(401);
      expect((await refresh(session.body.data.refresh_token)).status).toBe(401);
    }
    expect((await login(customer.email, 'a brand new passphrase')).status).toBe(200);
  });

  it('runs at most 10 password checks of 30 wrong guesses sent at once: the rest answer 429', async () => {
    const customer = await customerWithLogin();
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, index) => login(customer.email, `wrong guess number ${index}`)));
    const statuses = guesses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20);
    // Locked: the right password is refused too, until the window has passed.
    const locked = await login(customer.email);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);

  it('ends every other reset code when one is used, or when the password changes', async () => {
    const customer = await customerWithLogin();
    const requestCode = async () => {
      const mark = mailMark();
      expect((await call('POST', '/v1/auth/password-reset', { key: shop.publishable, body: { email: customer.email } })).status).toBe(202);
      return resetCodeFor(customer.email, mark)!;
    };
    const confirm = (token: string, password: string) =>
      call('POST', '/v1/auth/password-reset/confirm', { key: shop.publishable, body: { token, password } });
    const [first, second] = [await requestCode(), await requestCode()];
    expect(first).not.toBe(second);
    expect((await confirm(second, 'the second passphrase')).status).toBe(200);
    expect((await confirm(first, 'the first passphrase')).status).toBe(401);
    expect((await login(customer.email, 'the first passphrase')).status).toBe(401);

    const outstanding = await requestCode();
    const session = await login(customer.email, 'the second passphrase');
    const changed = await call('POST', '/v1/auth/password', {
      key: session.body.data.access_token,
      body: { current_password: 'the second passphrase', new_password: 'the third passphrase' },
    });
    expect(changed.status).toBe(200);
    expect((await confirm(outstanding, 'a taken-over passphrase')).status).toBe(401);
    expect((await login(customer.email, 'the third passphrase')).status).toBe(200);
  }, 60_000);

  it("keeps the code in a reset confirmation's Idempotency-Key fingerprint: another code with the same key is no replay", async () => {
    const [anna, ben] = [await customerWithLogin(), await customerWithLogin()];
    const codes: string[] = [];
    for (const customer of [anna, ben]) {
      const mark = mailMark();
      await call('POST', '/v1/auth/password-reset', { key: shop.publishable, body: { email: customer.email } });
      codes.push(resetCodeFor(customer.email, mark)!);
    }
    const headers = { 'Idempotency-Key': `reset-${Date.now()}` };
    const confirm = (token: string, extra = headers) =>
      call('POST', '/v1/auth/password-reset/confirm', {
        key: shop.publishable,
        body: { token, password: 'one passphrase for both' },
        headers: extra,
      });
    expect((await confirm(codes[0]!)).status).toBe(200);
    const other = await confirm(codes[1]!);
    expect(other.status, JSON.stringify(other.body)).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    // Ben's code was not spent by that: it still sets his password.
    expect((await confirm(codes[1]!, { 'Idempotency-Key': `reset-ben-${Date.now()}` })).status).toBe(200);
    // The same confirmation again is a replay.
    const replay = await confirm(codes[0]!);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers login for an unknown email as for a wrong password: status, body and DynamoDB work', async () => {
    const customer = await customerWithLogin();
    const wrong = await login(customer.email, 'not the password at all');
    const unknown = await login(uniqueEmail('nobody'), 'not the password at all');
    const unclaimed = (await call('POST', '/v1/customers', { key: shop.secret, body: { name: 'No Login', email: uniqueEmail('nologin') } }))
      .body.data.email;
    const withoutLogin = await login(unclaimed, 'not the password at all');
    const work = (response: typeof wrong) => dynamoDbWork(response).commands.map((command) => command.replace(/\[\d+\]$/, ''));
    for (const response of [unknown, withoutLogin]) {
      expect(response.status).toBe(401);
      expect({ ...response.body.error, request_id: undefined }).toEqual({ ...wrong.body.error, request_id: undefined });
      expect(work(response)).toEqual(work(wrong));
    }
  });

  it('answers a reset for an unknown email as for a known one: status, body, DynamoDB work, and a mail each', async () => {
    const known = (await customerWithLogin()).email;
    const unknown = uniqueEmail('nobody');
    const withoutLogin = (
      await call('POST', '/v1/customers', { key: shop.secret, body: { name: 'No Login', email: uniqueEmail('nologin') } })
    ).body.data.email;
    const mark = mailMark();
    const answers: ApiResponse<unknown>[] = [];
    for (const email of [known, unknown, withoutLogin]) {
      answers.push(await call('POST', '/v1/auth/password-reset', { key: shop.publishable, body: { email } }));
    }
    const work = (response: ApiResponse<unknown>) => dynamoDbWork(response).commands.map((command) => command.replace(/\[\d+\]$/, ''));
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual(answers[0]!.body);
      expect(work(answer)).toEqual(work(answers[0]!));
    }
    expect(resetCodeFor(known, mark)).toBeDefined();
    for (const email of [unknown, withoutLogin]) {
      const mails = mailsTo(email, mark);
      expect(mails, email).toHaveLength(1);
      expect(mails[0]!.text).not.toMatch(/prt_/);
    }
  });
});

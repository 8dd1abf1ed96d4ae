import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { createLogin, readLogin } from '#shared/customer-auth/credentials';
import { hashPassword } from '#shared/customer-auth/passwords';
import { call, dynamoDbWork, uniqueEmail, type ApiResponse } from '#test/support/http';
import { mailMark, mailsTo, PASSWORD, registrationCodeFor, signUp } from '#test/support/customer-accounts';

/** What a customer sees of their own record: never the shop's notes or bookkeeping. */
const OWN_FIELDS = ['company', 'created_at', 'email', 'id', 'name', 'phone', 'updated_at', 'vat_id'];

/**
 * Registration never hands a login to whoever knows an email: the login is attached only once the
 * mailbox confirmed a mailed code, and the answer to a registration is the same whatever the
 * email is — unknown, a customer the shop made, or a customer with a login.
 */
describe('registration with a mailed code', () => {
  let shop: { secret: string; publishable: string; tenant: { accountId: string; mode: 'test' } };

  beforeAll(async () => {
    const created = await createAccount({ name: 'Claim Shop', plan: 'enterprise' });
    shop = {
      secret: created.keys.secret_test.key,
      publishable: created.keys.publishable_test.key,
      tenant: { accountId: created.account.id, mode: 'test' },
    };
  });

  /** A customer the shop made by hand, with everything a shop keeps about one. */
  async function shopCustomer(email = uniqueEmail('claim')) {
    const made = await call('POST', '/v1/customers', {
      key: shop.secret,
      body: {
        name: 'Shop Made',
        email,
        phone: '+49 30 555',
        company: 'Victim GmbH',
        vat_id: 'DE136695976',
        notes: 'Pays late; owes 200 EUR',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.data as { id: number; email: string };
  }

  const register = (email: string, password = PASSWORD, name = 'Mallory') =>
    call('POST', '/v1/auth/register', { key: shop.publishable, body: { email, password, name } });
  const confirm = (code: string | undefined) => call('POST', '/v1/auth/register/confirm', { key: shop.publishable, body: { code } });
  const login = (email: string, password = PASSWORD) =>
    call('POST', '/v1/auth/login', { key: shop.publishable, body: { email, password } });

  it('attaches no login to a customer the shop made until the mailbox confirms the code, and shows nothing of the record before', async () => {
    const victim = await shopCustomer();
    const mark = mailMark();
    const registered = await register(victim.email);
    expect(registered.status, JSON.stringify(registered.body)).toBe(202);
    expect(registered.body.data).toEqual({ status: 'pending_confirmation' });
    for (const secret of ['Victim GmbH', '+49 30 555', 'DE123456789', 'Pays late', 'Shop Made', String(victim.id)]) {
      expect(JSON.stringify(registered.body)).not.toContain(secret);
    }
    // Nothing attached: no login stored, the password logs nobody in, the record is the shop's as it was.
    expect(await readLogin(shop.tenant, victim.id)).toBeUndefined();
    expect((await login(victim.email)).status).toBe(401);
    expect((await call('GET', `/v1/customers/${victim.id}`, { key: shop.secret })).body.data).toMatchObject({ name: 'Shop Made' });

    // A guessed code is refused; only the mailed one attaches the login.
    expect((await confirm(`reg_${randomBytes(32).toString('base64url')}`)).status).toBe(401);
    expect(await readLogin(shop.tenant, victim.id)).toBeUndefined();
    const code = registrationCodeFor(victim.email, mark);
    expect(code).toBeDefined();
    const confirmed = await confirm(code);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect(Object.keys(confirmed.body.data).sort()).toEqual(OWN_FIELDS);
    expect(confirmed.body.data).toMatchObject({ id: victim.id, email: victim.email, name: 'Shop Made', company: 'Victim GmbH' });
    expect(await readLogin(shop.tenant, victim.id)).toBeDefined();
    // Used once.
    expect((await confirm(code)).status).toBe(401);
    const session = await login(victim.email);
    expect(session.status).toBe(200);
    expect(Object.keys(session.body.data.customer).sort()).toEqual(OWN_FIELDS);
  });

  it('creates nothing for a new email until it is confirmed, then the customer with the name registered', async () => {
    const email = uniqueEmail('fresh');
    const mark = mailMark();
    expect((await register(email, PASSWORD, 'Fresh Face')).status).toBe(202);
    const listed = await call('GET', `/v1/customers?email=${encodeURIComponent(email)}`, { key: shop.secret });
    expect(listed.body.data).toEqual([]);
    expect((await login(email)).status).toBe(401);
    const confirmed = await confirm(registrationCodeFor(email, mark));
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect(confirmed.body.data).toMatchObject({ email, name: 'Fresh Face' });
    expect((await login(email)).status).toBe(200);
  });

  it('answers a new email, a customer without a login and one with a login alike — status, body and DynamoDB work — and mails each', async () => {
    const fresh = uniqueEmail('same');
    const unclaimed = (await shopCustomer()).email;
    const taken = uniqueEmail('same');
    expect((await signUp(shop.publishable, { email: taken })).status).toBe(201);

    const mark = mailMark();
    const answers: ApiResponse<unknown>[] = [];
    for (const email of [fresh, unclaimed, taken]) answers.push(await register(email, 'a new long passphrase'));
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual(answers[0]!.body);
      expect(answer.headers.get('content-type')).toBe(answers[0]!.headers.get('content-type'));
    }
    const work = answers.map((answer) => dynamoDbWork(answer).commands.map((command) => command.replace(/\[\d+\]$/, '')));
    expect(work[1]).toEqual(work[0]);
    expect(work[2]).toEqual(work[0]);

    for (const email of [fresh, unclaimed]) expect(registrationCodeFor(email, mark), email).toBeDefined();
    // The address with a login is told so (and how to get back in), and gets no registration code.
    const note = mailsTo(taken, mark);
    expect(note).toHaveLength(1);
    expect(note[0]!.text).toContain('already have an account');
    expect(registrationCodeFor(taken, mark)).toBeUndefined();
    // Its old password still logs in; the registration's changes nothing.
    expect((await login(taken)).status).toBe(200);
    expect((await login(taken, 'a new long passphrase')).status).toBe(401);
  });

  it('makes one login of two confirmations of one code, and of two codes for one email', async () => {
    const victim = await shopCustomer();
    const mark = mailMark();
    expect((await register(victim.email)).status).toBe(202);
    const code = registrationCodeFor(victim.email, mark);
    const statuses = (await Promise.all([confirm(code), confirm(code)])).map((response) => response.status).sort();
    expect(statuses).toEqual([201, 401]);

    const email = uniqueEmail('twice');
    const first = mailMark();
    expect((await register(email, 'the first passphrase')).status).toBe(202);
    const firstCode = registrationCodeFor(email, first);
    const second = mailMark();
    expect((await register(email, 'the second passphrase')).status).toBe(202);
    const codes = [firstCode, registrationCodeFor(email, second)];
    expect(codes[0]).not.toBe(codes[1]);
    const both = await Promise.all(codes.map(confirm));
    expect(both.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(both.find((response) => response.status === 409)!.body.error.code).toBe('conflict');
    const listed = await call('GET', `/v1/customers?email=${encodeURIComponent(email)}`, { key: shop.secret });
    expect(listed.body.data).toHaveLength(1);
  });

  it('attaches no second login when one appeared after the code was mailed', async () => {
    const victim = await shopCustomer();
    const mark = mailMark();
    expect((await register(victim.email, 'the attacker passphrase')).status).toBe(202);
    const code = registrationCodeFor(victim.email, mark);
    await createLogin(shop.tenant, victim.id, await hashPassword('the owner passphrase'));
    const late = await confirm(code);
    expect(late.status, JSON.stringify(late.body)).toBe(409);
    expect((await login(victim.email, 'the attacker passphrase')).status).toBe(401);
    expect((await login(victim.email, 'the owner passphrase')).status).toBe(200);
  });

  it('refuses a malformed confirmation with 422, never 500', async () => {
    for (const body of [{}, { code: '' }, { code: 42 }, { code: 'x'.repeat(500) }, { code: 'reg_abc', extra: true }]) {
      const response = await call('POST', '/v1/auth/register/confirm', { key: shop.publishable, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
  });
});

describe("a customer's own view", () => {
  it('never shows the shop’s notes: login, GET and PUT /v1/auth/me', async () => {
    const created = await createAccount({ name: 'Notes Shop', plan: 'enterprise' });
    const secret = created.keys.secret_test.key;
    const publishable = created.keys.publishable_test.key;
    const tenant = { accountId: created.account.id, mode: 'test' as const };
    const email = uniqueEmail('notes');
    const made = await call('POST', '/v1/customers', {
      key: secret,
      body: { name: 'Noted', email, vat_id: 'DE136695976', notes: 'Internal: difficult customer' },
    });
    expect(made.status).toBe(201);
    // A login given the way a confirmed registration gives it.
    await createLogin(tenant, made.body.data.id, await hashPassword(PASSWORD));

    const session = await call('POST', '/v1/auth/login', { key: publishable, body: { email, password: PASSWORD } });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const token = session.body.data.access_token;
    const me = await call('GET', '/v1/auth/me', { key: token });
    const changed = await call('PUT', '/v1/auth/me', { key: token, body: { phone: '+49 1' } });
    for (const [what, view] of [
      ['login', session.body.data.customer],
      ['GET /v1/auth/me', me.body.data],
      ['PUT /v1/auth/me', changed.body.data],
    ] as const) {
      expect(Object.keys(view).sort(), what).toEqual(OWN_FIELDS);
      expect(JSON.stringify(view), what).not.toContain('difficult');
    }
    expect(me.body.data).toMatchObject({ vat_id: 'DE136695976', email });
    // The shop still has its notes.
    expect((await call('GET', `/v1/customers/${made.body.data.id}`, { key: secret })).body.data.notes).toBe('Internal: difficult customer');
  });
});

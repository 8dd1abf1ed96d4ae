import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { signingKeys } from '#shared/customer-auth/key-store';
import { newSigningKey } from '#shared/customer-auth/signing-keys';
import { issueAccessToken, tokenContext } from '#shared/customer-auth/tokens';
import { call, uniqueEmail } from '#test/support/http';
import { signIn as signInCustomer } from '#test/support/customer-accounts';
import { eventually } from '#test/support/wait';
import { businessCards } from '#test/support/products';

/**
 * What a customer access token may do, over HTTP through the local gateway and its authorizer: the
 * customer's own account, orders and addresses, the catalogue — and nothing else.
 */
describe('customer access tokens', () => {
  let shop: { secret: string; publishable: string; accountId: string };
  let other: { secret: string; publishable: string };
  let productId: number;

  const password = 'correct horse battery';

  /** A registered customer of `publishable`'s shop, signed in. */
  const signIn = (publishable = shop.publishable) => signInCustomer(publishable, { email: uniqueEmail('token'), password, name: 'Tess' });

  const order = (token: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    call('POST', '/v1/orders', {
      key: token,
      body: { items: [{ product_id: productId, quantity: 250, options: { paper: 'matt300' } }], ...extra },
      headers,
    });

  beforeAll(async () => {
    const created = await createAccount({ name: 'Token Shop', plan: 'enterprise' });
    shop = { secret: created.keys.secret_test.key, publishable: created.keys.publishable_test.key, accountId: created.account.id };
    const second = await createAccount({ name: 'Other Token Shop', plan: 'enterprise' });
    other = { secret: second.keys.secret_test.key, publishable: second.keys.publishable_test.key };
    const product = await call('POST', '/v1/products', { key: shop.secret, body: businessCards() });
    expect(product.status).toBe(201);
    productId = product.body.data.id;
  });

  it('signs in: register → login → GET /v1/auth/me, and the token verifies with jose against the published JWKS', async () => {
    const customer = await signIn();
    const me = await call('GET', '/v1/auth/me', { key: customer.token });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.data).toMatchObject({ id: customer.id, email: customer.email, name: 'Tess' });
    const jwks = (await (await fetch(`${inject('fixtures').api}/v1/auth/jwks.json`)).json()) as JSONWebKeySet;
    const { payload, protectedHeader } = await jwtVerify(customer.token, createLocalJWKSet(jwks), {
      algorithms: ['ES256'],
      issuer: tokenContext().issuer,
      audience: tokenContext().audience,
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: String(customer.id), acct: shop.accountId, mode: 'test', scope: 'customer' });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(typeof payload.jti).toBe('string');
  });

  it('refuses a token with one changed character, an expired one, alg none, a wrong audience or issuer, an unknown key', async () => {
    const customer = await signIn();
    const [header, payload, signature] = customer.token.split('.') as [string, string, string];
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      '',
    ].join('.');
    const keys = await signingKeys();
    const tenant = { accountId: shop.accountId, mode: 'test' as const };
    const issue = (options: { at?: Date; context?: { issuer: string; audience: string }; keys?: typeof keys }) =>
      issueAccessToken(customer.id, tenant, options.keys ?? keys, options.context ?? tokenContext(), options.at, claims.sid).then(
        (issued) => issued.token,
      );
    const stranger = await newSigningKey(new Date(0));
    const refused = {
      'one changed character in the signature': `${header}.${payload}.${flip(signature, 10)}`,
      'one changed character in the claims': `${header}.${flip(payload, 20)}.${signature}`,
      expired: await issue({ at: new Date(Date.now() - 16 * 60_000) }),
      'alg none': unsigned,
      'wrong audience': await issue({ context: { ...tokenContext(), audience: 'urn:someone-else' } }),
      'wrong issuer': await issue({ context: { ...tokenContext(), issuer: 'https://evil.example' } }),
      'unknown kid': await issue({ keys: { current: stranger, previous: null } }),
    };
    expect((await call('GET', '/v1/auth/me', { key: customer.token })).status).toBe(200);
    for (const [what, token] of Object.entries(refused)) {
      const response = await call('GET', '/v1/auth/me', { key: token });
      expect(response.status, what).toBe(401);
      expect(response.body.error.code, what).toBe('unauthorized');
    }
  });

  it("keeps to the token's own tenant: another shop's customer is unknown here, and a token naming a customer without a login here is 401", async () => {
    const elsewhere = await signIn(other.publishable);
    const mine = await signIn();
    const placed = await order(mine.token);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    // The other shop's customer reads their own shop only: this shop's order does not exist for them.
    expect((await call('GET', `/v1/orders/${placed.body.data.id}`, { key: elsewhere.token })).status).toBe(404);
    // A correctly signed token whose tenant has no such login (the other shop's customer id, this shop's account; live mode).
    const keys = await signingKeys();
    const sid = JSON.parse(Buffer.from(mine.token.split('.')[1]!, 'base64url').toString()).sid;
    const foreign = await issueAccessToken(
      elsewhere.id + 100_000,
      { accountId: shop.accountId, mode: 'test' },
      keys,
      tokenContext(),
      new Date(),
      sid,
    );
    const live = await issueAccessToken(mine.id, { accountId: shop.accountId, mode: 'live' }, keys, tokenContext(), new Date(), sid);
    expect((await call('GET', '/v1/auth/me', { key: foreign.token })).status).toBe(401);
    expect((await call('GET', '/v1/auth/me', { key: live.token })).status).toBe(401);
  });

  it('calls exactly the routes opened to customers: others answer 403, its own routes refuse API keys', async () => {
    const customer = await signIn();
    for (const [method, path] of [
      ['GET', '/v1/customers'],
      ['GET', `/v1/customers/${customer.id}`],
      ['GET', '/v1/invoices'],
      ['GET', '/v1/webhooks'],
      ['GET', '/v1/account'],
      ['POST', '/v1/products'],
    ] as const) {
      const response = await call(method, path, { key: customer.token, ...(method === 'POST' ? { body: businessCards() } : {}) });
      expect(response.status, path).toBe(403);
      expect(response.body.error.code, path).toBe('forbidden');
    }
    const catalogue = await call('GET', '/v1/products', { key: customer.token });
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.data.map((product: { id: number }) => product.id)).toContain(productId);
    expect(
      (
        await call('POST', `/v1/products/${productId}/calculate`, {
          key: customer.token,
          body: { quantity: 300, options: { paper: 'matt300' } },
        })
      ).status,
    ).toBe(200);
    for (const key of [shop.secret, shop.publishable]) {
      const response = await call('GET', '/v1/auth/me', { key });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    }
  });

  it('orders for itself only: the customer is implied, another is 403, shipping is the shop’s, lists and reads only its own', async () => {
    const anna = await signIn();
    const ben = await signIn();
    const annas = await order(anna.token);
    expect(annas.status, JSON.stringify(annas.body)).toBe(201);
    expect(annas.body.data.customer).toMatchObject({ id: anna.id });
    expect((await order(anna.token, { customer_id: anna.id })).status).toBe(201);
    const forBen = await order(anna.token, { customer_id: ben.id });
    expect(forBen.status).toBe(403);
    const shipping = await order(anna.token, { shipping: 0 });
    expect(shipping.status).toBe(422);
    expect(shipping.body.error.details).toEqual([{ field: 'shipping', message: 'Unknown field' }]);
    // An API key still names the customer.
    const unnamed = await call('POST', '/v1/orders', { key: shop.secret, body: { items: [{ product_id: productId, quantity: 250 }] } });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.error.details).toEqual([expect.objectContaining({ field: 'customer_id' })]);

    const bens = await order(ben.token);
    expect((await call('GET', `/v1/orders/${bens.body.data.id}`, { key: anna.token })).status).toBe(404);
    expect((await call('GET', `/v1/orders/${annas.body.data.id}`, { key: anna.token })).status).toBe(200);
    const list = await call('GET', '/v1/orders', { key: anna.token });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBe(2);
    expect(new Set(list.body.data.map((entry: { customer: { id: number } }) => entry.customer.id))).toEqual(new Set([anna.id]));
    expect((await call('GET', `/v1/orders?customer_id=${ben.id}`, { key: anna.token })).status).toBe(403);
    // Orders stay the shop's to change.
    expect((await call('PUT', `/v1/orders/${annas.body.data.id}`, { key: anna.token, body: { notes: 'x' } })).status).toBe(403);
  });

  it("never prices a line: unit_price and description are the shop's (422 naming the field), and no order is written", async () => {
    const mallory = await signIn();
    const line = { product_id: productId, quantity: 5_000, options: { paper: 'matt300' } };
    for (const [field, value] of [
      ['unit_price', 0],
      ['unit_price', 0.01],
      ['description', 'Free of charge, as agreed'],
    ] as const) {
      const refused = await call('POST', '/v1/orders', { key: mallory.token, body: { items: [{ ...line, [field]: value }] } });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.error.details).toEqual([{ field: `items.0.${field}`, message: 'is set by the shop' }]);
    }
    const orders = await call('GET', '/v1/orders', { key: mallory.token });
    expect(orders.body.data).toEqual([]);
    // The catalogue prices the same line; the shop's key may still set a manual price.
    const priced = await call('POST', '/v1/orders', { key: mallory.token, body: { items: [line] } });
    expect(priced.status, JSON.stringify(priced.body)).toBe(201);
    expect(priced.body.data.total).toBeGreaterThan(100);
    const manual = await call('POST', '/v1/orders', {
      key: shop.secret,
      body: { customer_id: mallory.id, items: [{ ...line, unit_price: 0.01, description: 'Agreed price' }] },
    });
    expect(manual.status, JSON.stringify(manual.body)).toBe(201);
    expect(manual.body.data.items[0]).toMatchObject({ unit_price: 0.01, description: 'Agreed price' });
  });

  it("keeps one customer's Idempotency-Key apart from another's", async () => {
    const anna = await signIn();
    const ben = await signIn();
    const key = { 'Idempotency-Key': `shared-${Date.now()}` };
    const first = await order(anna.token, {}, key);
    const second = await order(ben.token, {}, key);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.customer.id).toBe(ben.id);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    const replay = await order(anna.token, {}, key);
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('manages its own addresses; another customer’s are not there (404)', async () => {
    const anna = await signIn();
    const ben = await signIn();
    const address = { type: 'shipping', name: 'Anna', line1: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' };
    const added = await call('POST', `/v1/customers/${anna.id}/addresses`, { key: anna.token, body: address });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await call('GET', `/v1/customers/${anna.id}/addresses`, { key: anna.token })).body.data).toHaveLength(1);
    expect((await call('GET', `/v1/customers/${anna.id}/addresses`, { key: ben.token })).status).toBe(404);
    expect((await call('POST', `/v1/customers/${anna.id}/addresses`, { key: ben.token, body: address })).status).toBe(404);
    expect((await call('DELETE', `/v1/customers/${anna.id}/addresses/${added.body.data.id}`, { key: ben.token })).status).toBe(404);
    expect((await call('GET', `/v1/customers/${anna.id}/addresses/${added.body.data.id}`, { key: anna.token })).status).toBe(200);
  });

  it('changes its name, phone and company, never its email', async () => {
    const customer = await signIn();
    const changed = await call('PUT', '/v1/auth/me', {
      key: customer.token,
      body: { name: 'Tess Ulm', phone: '+49 30 1234', company: 'Ulm GmbH' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Tess Ulm', phone: '+49 30 1234', company: 'Ulm GmbH', email: customer.email });
    const email = await call('PUT', '/v1/auth/me', { key: customer.token, body: { email: 'new@example.com' } });
    expect(email.status).toBe(422);
    expect(JSON.stringify(email.body.error.details)).toContain('email');
    expect((await call('PUT', '/v1/auth/me', { key: customer.token, body: {} })).status).toBe(422);
  });

  it('ends the session at logout, and a password change ends every other session at once', async () => {
    const customer = await signIn();
    const second = await call('POST', '/v1/auth/login', { key: shop.publishable, body: { email: customer.email, password } });
    const other = { token: second.body.data.access_token, refresh: second.body.data.refresh_token };

    const wrong = await call('POST', '/v1/auth/password', {
      key: customer.token,
      body: { current_password: 'not the password', new_password: 'a brand new passphrase' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details).toEqual([expect.objectContaining({ field: 'current_password' })]);
    const changed = await call('POST', '/v1/auth/password', {
      key: customer.token,
      body: { current_password: password, new_password: 'a brand new passphrase' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await call('GET', '/v1/auth/me', { key: customer.token })).status).toBe(200);
    expect((await call('GET', '/v1/auth/me', { key: other.token })).status).toBe(401);
    expect((await call('POST', '/v1/auth/refresh', { key: shop.publishable, body: { refresh_token: other.refresh } })).status).toBe(401);

    expect((await call('POST', '/v1/auth/logout', { key: shop.publishable, body: { refresh_token: customer.refresh } })).status).toBe(200);
    expect((await call('GET', '/v1/auth/me', { key: customer.token })).status).toBe(401);
  });

  it('is counted on its own quota and audited as customer:<id>', async () => {
    const customer = await signIn();
    const me = await call('GET', '/v1/auth/me', { key: customer.token });
    const merchant = await call('GET', '/v1/customers', { key: shop.secret });
    // The merchant's remaining quota is not the customer's: each has its own window.
    expect(Number(me.headers.get('x-ratelimit-limit'))).toBeLessThan(Number(merchant.headers.get('x-ratelimit-limit')));
    const record = await eventually(
      async () =>
        (await call('GET', '/v1/audit-logs?path_prefix=/v1/auth/me', { key: shop.secret })).body.data.find(
          (entry: { customer_id: number | null }) => entry.customer_id === customer.id,
        ),
      (found) => found !== undefined,
      5000,
    );
    expect(record).toMatchObject({ actor: `customer:${customer.id}`, key_id: null, key_prefix: null, route: 'auth.me', status: 200 });
    // The merchant's own call (the customer's refused GET /v1/customers of another test is recorded too, as the customer's).
    const merchants = await eventually(
      async () =>
        (await call('GET', '/v1/audit-logs?path_prefix=/v1/customers', { key: shop.secret })).body.data.find(
          (entry) => entry.route === 'customers.list' && entry.status === 200,
        ),
      (found) => found !== undefined,
      5000,
    );
    expect(merchants!.actor).toMatch(/^key:sk_test_/);
  });
});

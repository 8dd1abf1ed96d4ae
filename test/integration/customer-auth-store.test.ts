import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { env, resetConfig } from '#shared/config';
import { dynamo } from '#shared/clients/dynamodb';
import {
  changePasswordHash,
  createLogin,
  issueResetToken,
  loginPut,
  readLogin,
  rehashPassword,
  resetPassword,
} from '#shared/customer-auth/credentials';
import { ensureSigningKeys, resetKeyCache, rotateSigningKeys, signingKeys } from '#shared/customer-auth/key-store';
import { publishedKeys, requirePublishedKeys } from '#shared/customer-auth/published-keys';
import { clearFailures, reserveAttempt } from '#shared/customer-auth/lockout';
import { readSession, RefreshRefused, revokeFamily, rotate, startFamily } from '#shared/customer-auth/refresh-tokens';
import { issueAccessToken, verifyAccessToken } from '#shared/customer-auth/tokens';
import { customerAuthKeys, platformKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { ConflictError, NotFoundError, RateLimitedError, ServiceUnavailableError } from '#shared/errors';
import { call } from '#test/support/http';
import { newCustomer } from '#test/support/orders';
import { freshShop } from '#test/support/webhooks';

/** Refresh-token families, the login lockout and the signing keys against DynamoDB Local. */
describe('refresh-token families', () => {
  const tenant = () => ({ accountId: `acct_${randomUUID().slice(0, 8)}`, mode: 'test' as const });
  const refused = async (work: Promise<unknown>, reason: string) => {
    const error = await work.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RefreshRefused);
    expect((error as RefreshRefused).reason).toBe(reason);
  };
  /** A login for a customer id of a bare tenant (a rotation holds the family against its login). */
  const seedLogin = (t: { accountId: string; mode: 'test' }, customerId: number) =>
    transactWrite([loginPut(t, customerId, 'scrypt$seeded', new Date())]);

  it('rotates a token into a new one of the same family, once', async () => {
    const t = tenant();
    await seedLogin(t, 7);
    const { refreshToken, familyId } = await startFamily(t, 7);
    const next = await rotate(t, refreshToken);
    expect(next).toMatchObject({ customerId: 7, familyId });
    expect(next.refreshToken).not.toBe(refreshToken);
    const after = await rotate(t, next.refreshToken);
    expect(after.familyId).toBe(familyId);
    await refused(rotate(t, 'rt_unknown'), 'unknown');
  });

  it('leaves the table by its TTL attribute: tokens, families, reset codes and lockout counts carry `expires_at` in epoch seconds', async () => {
    const t = tenant();
    const now = new Date();
    const { refreshToken, familyId } = await startFamily(t, 7, now);
    await reserveAttempt(t, 'ttl@example.com', now);
    const { token: resetToken } = await issueResetToken(t, { customer_id: 7, code_generation: 0 }, now);
    const read = async (key: { pk: string; sk: string }) =>
      (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item!;
    const hash = (text: string) => createHash('sha256').update(text).digest('hex');
    const items = [
      await read(customerAuthKeys.refreshToken(t, hash(refreshToken))),
      await read(customerAuthKeys.family(t, familyId)),
      await read(customerAuthKeys.passwordReset(t, hash(resetToken))),
      await read(customerAuthKeys.loginFailures(t, hash('ttl@example.com'))),
    ];
    const nowSeconds = Math.floor(now.getTime() / 1000);
    for (const item of items) {
      expect(typeof item.expires_at, item.entity).toBe('number');
      expect(item.expires_at, item.entity).toBeGreaterThan(nowSeconds);
      expect(item.expires_at, item.entity).toBeLessThan(nowSeconds + 31 * 86_400);
    }
  });

  it('revokes the whole family when a used token comes back: the newer token stops working too', async () => {
    const t = tenant();
    await seedLogin(t, 8);
    const { refreshToken } = await startFamily(t, 8);
    const next = await rotate(t, refreshToken);
    await refused(rotate(t, refreshToken), 'reused');
    await refused(rotate(t, next.refreshToken), 'revoked');
  });

  it('lets one of two concurrent refreshes with the same token through and treats the other as reuse', async () => {
    const t = tenant();
    await seedLogin(t, 9);
    const { refreshToken } = await startFamily(t, 9);
    const results = await Promise.allSettled([rotate(t, refreshToken), rotate(t, refreshToken)]);
    const winners = results.filter((result) => result.status === 'fulfilled');
    expect(winners.length).toBeLessThanOrEqual(1);
    const reasons = results.filter((result) => result.status === 'rejected').map((result) => (result.reason as RefreshRefused).reason);
    expect(reasons.every((reason) => reason === 'reused' || reason === 'revoked')).toBe(true);
    // Reuse was detected: the family is revoked, so the winner's token does not refresh either.
    if (winners[0]?.status === 'fulfilled') await refused(rotate(t, winners[0].value.refreshToken), 'revoked');
  });

  it('refuses an expired token, a logged-out family, and the other sessions after a password change', async () => {
    const t = tenant();
    await seedLogin(t, 10);
    const old = await startFamily(t, 10, new Date(Date.now() - 31 * 86_400_000));
    await refused(rotate(t, old.refreshToken), 'expired');

    const loggedOut = await startFamily(t, 10);
    await revokeFamily(t, loggedOut.familyId);
    await refused(rotate(t, loggedOut.refreshToken), 'revoked');

    await seedLogin(t, 11);
    const [a, b, current] = [await startFamily(t, 11), await startFamily(t, 11), await startFamily(t, 11)];
    await changePasswordHash(t, 11, { verifiedHash: 'scrypt$seeded', passwordHash: 'scrypt$changed', keepSession: current.familyId });
    await refused(rotate(t, a.refreshToken), 'ended');
    await refused(rotate(t, b.refreshToken), 'ended');
    const kept = await rotate(t, current.refreshToken);
    // A family started after the change, of the login's new generation, refreshes too; one of the old generation does not.
    const login = (await readLogin(t, 11))!;
    expect(login).toMatchObject({ session_generation: 1, kept_session: current.familyId, code_generation: 1 });
    await expect(rotate(t, (await startFamily(t, 11, new Date(), login.session_generation)).refreshToken)).resolves.toMatchObject({
      customerId: 11,
    });
    await refused(rotate(t, (await startFamily(t, 11, new Date(), 0)).refreshToken), 'ended');
    // The sessions as the authorizer reads them: stamped with their generation.
    expect(await readSession(t, a.familyId, 11)).toEqual({ familyId: a.familyId, generation: 0 });
    expect(await readSession(t, a.familyId, 12)).toBeUndefined();
    expect(await readSession(t, loggedOut.familyId, 10)).toBeUndefined();

    // A second change from another session ends the session the first one kept.
    const other = await startFamily(t, 11, new Date(), 1);
    await changePasswordHash(t, 11, { verifiedHash: 'scrypt$changed', passwordHash: 'scrypt$again', keepSession: other.familyId });
    await refused(rotate(t, kept.refreshToken), 'ended');
    await expect(rotate(t, other.refreshToken)).resolves.toMatchObject({ customerId: 11 });
    // A change against a hash that is no longer the login's (changed meanwhile) is refused.
    await expect(
      changePasswordHash(t, 11, { verifiedHash: 'scrypt$changed', passwordHash: 'scrypt$lost', keepSession: null }),
    ).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('login lockout', () => {
  const tenant = () => ({ accountId: `acct_${randomUUID().slice(0, 8)}`, mode: 'test' as const });
  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

  it('reserves ten checks of an email within 15 minutes, whatever the case, with Retry-After after them; other emails are unaffected', async () => {
    const t = tenant();
    const now = new Date();
    for (let i = 0; i < 10; i++) await reserveAttempt(t, i % 2 ? 'Anna@Example.com' : 'anna@example.com', now);
    const error = await refusal(reserveAttempt(t, 'anna@example.com', now));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBeGreaterThan(14 * 60);
    await expect(reserveAttempt(t, 'other@example.com', now)).resolves.toBeUndefined();
    // After the window, the email may try again; a success clears the count.
    await expect(reserveAttempt(t, 'anna@example.com', new Date(now.getTime() + 16 * 60_000))).resolves.toBeUndefined();
    await clearFailures(t, 'anna@example.com');
    await expect(reserveAttempt(t, 'anna@example.com', now)).resolves.toBeUndefined();
  });

  it('grants exactly ten of 40 reservations made at once, in a window opened by several at once', async () => {
    const t = tenant();
    const now = new Date();
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => reserveAttempt(t, 'crowd@example.com', now)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
    for (const result of results) if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(RateLimitedError);
  });
});

describe('token-signing keys', () => {
  it('are never made by a route: a stage without them answers 503 naming the command, and the operator makes them once however many run at once', async () => {
    // A table of its own (this file's process only): the shared one has its keys, which other files use meanwhile.
    const shared = tableName();
    const TableName = `signing-keys-${randomUUID()}`;
    await dynamo().send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    process.env[env.tableName] = TableName;
    resetConfig();
    resetKeyCache();
    try {
      const missing = await signingKeys().catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(ServiceUnavailableError);
      expect((missing as Error).message).toContain('npm run accounts -- rotate-signing-key');
      await expect(requirePublishedKeys()).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect((await dynamo().send(new GetCommand({ TableName, Key: platformKeys.customerTokenKeys }))).Item).toBeUndefined();

      const made = await Promise.all(Array.from({ length: 5 }, () => ensureSigningKeys()));
      expect(made.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(made.map((result) => result.kid)).size).toBe(1);
      expect((await signingKeys()).current.kid).toBe(made[0]!.kid);
      await expect(ensureSigningKeys()).resolves.toEqual({ kid: made[0]!.kid, created: false });
    } finally {
      process.env[env.tableName] = shared;
      resetConfig();
      resetKeyCache();
      await dynamo().send(new DeleteTableCommand({ TableName }));
    }
  });

  it('makes the keys once, seals the private half, signs tokens the published keys verify, and rotates keeping the previous', async () => {
    resetKeyCache();
    const context = { issuer: 'https://api.example.com/v1', audience: 'print-shop-api' };
    const tenant = { accountId: 'acct_keys', mode: 'test' as const };
    await ensureSigningKeys();
    const [a, b] = await Promise.all([signingKeys(), signingKeys()]);
    expect(a.current.kid).toBe(b.current.kid);
    const stored = (await dynamo().send(new GetCommand({ TableName: tableName(), Key: platformKeys.customerTokenKeys }))).Item!;
    expect(stored.current.private_sealed).toMatch(/^enc2\.customer-token-signing-key\./);
    expect(JSON.stringify(stored)).not.toContain(String(a.current.private_jwk.d));
    const { token } = await issueAccessToken(5, tenant, a, context);
    const published = await publishedKeys();
    expect(published.keys.map((key) => key.kid)).toContain(a.current.kid);
    for (const key of published.keys) expect(key).not.toHaveProperty('d');
    await expect(verifyAccessToken(token, published, context)).resolves.toMatchObject({ customerId: 5 });

    const kid = await rotateSigningKeys();
    expect(kid).not.toBe(a.current.kid);
    const afterRotation = await publishedKeys();
    expect(afterRotation.keys.map((key) => key.kid)).toEqual([kid, a.current.kid]);
    await expect(verifyAccessToken(token, afterRotation, context)).resolves.toMatchObject({ customerId: 5 });
    expect((await signingKeys()).current.kid).toBe(kid);
  });
});

describe('logins and reset tokens', () => {
  it('gives a customer one login, rehashes only the hash verified, deletes it with the customer', async () => {
    const shop = await freshShop('Login Shop');
    const customer = await newCustomer(shop.secretTest);
    const t = shop.tenant;
    await createLogin(t, customer.id, 'scrypt$hash-one');
    await expect(createLogin(t, customer.id, 'scrypt$hash-two')).rejects.toBeInstanceOf(ConflictError);
    await expect(createLogin(t, 999_999, 'scrypt$x')).rejects.toBeInstanceOf(NotFoundError);
    expect(await readLogin(t, customer.id)).toMatchObject({ session_generation: 0, kept_session: null, code_generation: 0 });
    await rehashPassword(t, customer.id, 'scrypt$hash-one', 'scrypt$hash-three');
    expect((await readLogin(t, customer.id))?.password_hash).toBe('scrypt$hash-three');
    // A rehash of a hash that is no longer the login's (a change came first) changes nothing.
    await rehashPassword(t, customer.id, 'scrypt$hash-one', 'scrypt$stale');
    expect((await readLogin(t, customer.id))?.password_hash).toBe('scrypt$hash-three');

    expect((await call('DELETE', `/v1/customers/${customer.id}`, { key: shop.secretTest })).status).toBe(200);
    expect(await readLogin(t, customer.id)).toBeUndefined();
  });

  it('sets a password with a reset code once, even twice at once; a used code or a change ends the other codes; an unbound code does nothing', async () => {
    const shop = await freshShop('Reset Shop');
    const customer = await newCustomer(shop.secretTest);
    const t = shop.tenant;
    await createLogin(t, customer.id, 'scrypt$hash-one');
    const issue = async (at?: Date) => (await issueResetToken(t, (await readLogin(t, customer.id))!, at)).token;

    const token = await issue();
    const other = await issue();
    expect(token).toMatch(/^prt_[\w-]{43}$/);
    const [first, second] = await Promise.all([resetPassword(t, token, 'scrypt$reset-a'), resetPassword(t, token, 'scrypt$reset-b')]);
    expect([first, second].filter((value) => value === customer.id)).toHaveLength(1);
    expect(await resetPassword(t, token, 'scrypt$again')).toBeUndefined();
    // The other code of the same generation ended with the use.
    expect(await resetPassword(t, other, 'scrypt$other')).toBeUndefined();
    expect((await readLogin(t, customer.id))?.password_hash).toMatch(/^scrypt\$reset-[ab]$/);
    const expired = await issue(new Date(Date.now() - 31 * 60_000));
    expect(await resetPassword(t, expired, 'scrypt$late')).toBeUndefined();

    const outstanding = await issue();
    const login = (await readLogin(t, customer.id))!;
    await changePasswordHash(t, customer.id, { verifiedHash: login.password_hash, passwordHash: 'scrypt$changed', keepSession: null });
    expect(await resetPassword(t, outstanding, 'scrypt$taken-over')).toBeUndefined();
    expect((await readLogin(t, customer.id))?.password_hash).toBe('scrypt$changed');

    // A code issued for no login (an unknown email's request) sets nothing.
    const unbound = (await issueResetToken(t, undefined)).token;
    expect(await resetPassword(t, unbound, 'scrypt$nobody')).toBeUndefined();
  });
});

import { SignJWT, UnsecuredJWT, createLocalJWKSet, decodeProtectedHeader, jwtVerify, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '#shared/config';
import { LOCKOUT_WINDOW_SECONDS, lockoutState, MAX_FAILURES } from '#shared/customer-auth/lockout';
import { OWN_CUSTOMER_FIELDS, ownView } from '#shared/customer-auth/own-view';
import { OwnCustomerSchema } from '#shared/customer-auth/schema';
import { generationCondition, sessionCurrent } from '#shared/customer-auth/session-rules';
import {
  CURRENT_PARAMETERS,
  currentParameters,
  hashPassword,
  passwordProblem,
  verifyNothing,
  verifyPassword,
  type ScryptParameters,
} from '#shared/customer-auth/passwords';
import { jwksOf, newSigningKey, rotated, type SigningKeySet } from '#shared/customer-auth/signing-keys';
import {
  ACCESS_TOKEN_SECONDS,
  InvalidAccessToken,
  issueAccessToken,
  newRefreshToken,
  refreshTokenHash,
  verifyAccessToken,
} from '#shared/customer-auth/tokens';

// Lighter than production (2^17) so the suite stays fast; the code path is the same.
const FAST: ScryptParameters = { logN: 12, r: 8, p: 1 };
const context = { issuer: 'https://api.example.com/v1', audience: 'print-shop-api' };
const tenant = { accountId: 'acct_1', mode: 'test' as const };

describe('customer passwords', () => {
  it('verifies the password it hashed, with a fresh salt each time, and nothing else', async () => {
    const stored = await hashPassword('correct horse battery', FAST);
    expect(stored).toMatch(/^scrypt\$12\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await hashPassword('correct horse battery', FAST)).not.toBe(stored);
    expect(await verifyPassword('correct horse battery', stored, FAST)).toEqual({ ok: true, rehash: false });
    expect(await verifyPassword('correct horse batterY', stored, FAST)).toEqual({ ok: false, rehash: false });
    expect(await verifyPassword('anything', 'scrypt$99$8$1$x$y', FAST)).toEqual({ ok: false, rehash: false });
  });

  it('asks for a rehash when the stored parameters are below the current ones, and normalises Unicode', async () => {
    const old = await hashPassword('Müller-Passwort', { logN: 11, r: 8, p: 1 });
    expect(await verifyPassword('Müller-Passwort', old, FAST)).toEqual({ ok: true, rehash: true });
    // "ü" precomposed and decomposed are the same password.
    expect((await verifyPassword('Mu\u0308ller-Passwort', old, FAST)).ok).toBe(true);
    await expect(verifyNothing('whatever', FAST)).resolves.toBeUndefined();
  });

  describe('the cost', () => {
    /** currentParameters() under these variables (this process may have inherited the integration stack's). */
    const withEnv = (variables: Record<string, string | undefined>) => {
      for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
      resetConfig();
      return currentParameters();
    };
    afterEach(() => {
      vi.unstubAllEnvs();
      resetConfig();
    });

    it("is OWASP's by default (N = 2^17, r = 8, p = 1)", async () => {
      expect(CURRENT_PARAMETERS).toEqual({ logN: 17, r: 8, p: 1 });
      expect(withEnv({ TEST_SCRYPT_LOG_N: undefined, LOCAL_MODE: undefined })).toEqual({ logN: 17, r: 8, p: 1 });
      expect((await hashPassword('a long enough password')).startsWith('scrypt$17$8$1$')).toBe(true);
    });

    it("ignores the tests' cheaper N (TEST_SCRYPT_LOG_N) without LOCAL_MODE=true, as on AWS", () => {
      expect(withEnv({ TEST_SCRYPT_LOG_N: '12', LOCAL_MODE: undefined })).toEqual({ logN: 17, r: 8, p: 1 });
      expect(withEnv({ TEST_SCRYPT_LOG_N: '12', LOCAL_MODE: 'false' })).toEqual({ logN: 17, r: 8, p: 1 });
    });

    it("takes the tests' cheaper N in local mode only from 2^10 to 2^16, and nothing else from it", async () => {
      expect(withEnv({ TEST_SCRYPT_LOG_N: '12', LOCAL_MODE: 'true' })).toEqual({ logN: 12, r: 8, p: 1 });
      expect((await hashPassword('a long enough password')).startsWith('scrypt$12$8$1$')).toBe(true);
      for (const ignored of ['9', '17', '20', '12.5', 'cheap', ''])
        expect(withEnv({ TEST_SCRYPT_LOG_N: ignored, LOCAL_MODE: 'true' }), ignored).toEqual({ logN: 17, r: 8, p: 1 });
    });
  });

  it('refuses short, overlong and common passwords, and the email address itself', () => {
    expect(passwordProblem('short1')).toMatch(/at least 10/);
    expect(passwordProblem('x'.repeat(201))).toMatch(/at most 200/);
    expect(passwordProblem('Password123')).toMatch(/common/);
    expect(passwordProblem('anna@example.com', { email: 'Anna@Example.com' })).toMatch(/email/);
    expect(passwordProblem('Łódź ist schön 2026')).toBeUndefined();
  });
});

describe('customer access tokens', () => {
  const keySet = async (): Promise<SigningKeySet> => rotated(null);

  it('issues an ES256 JWT with kid and the documented claims, verifiable by jose against the published JWKS', async () => {
    const keys = await keySet();
    const now = new Date('2026-11-24T10:00:00Z');
    const { token, expiresIn } = await issueAccessToken(42, tenant, keys, context, now);
    expect(expiresIn).toBe(ACCESS_TOKEN_SECONDS);
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwksOf(keys)), {
      algorithms: ['ES256'],
      issuer: context.issuer,
      audience: context.audience,
      currentDate: now,
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: keys.current.kid, typ: 'JWT' });
    expect(payload).toMatchObject({
      sub: '42',
      acct: 'acct_1',
      mode: 'test',
      scope: 'customer',
      iss: context.issuer,
      aud: context.audience,
    });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload.jti).toEqual(expect.any(String));
    expect(await verifyAccessToken(token, jwksOf(keys), context, now)).toMatchObject({ customerId: 42, tenant });
    // The JWKS carries public keys only.
    for (const key of jwksOf(keys).keys) expect(key).not.toHaveProperty('d');
  });

  it('refuses tampered, expired, unsigned, wrong-audience, wrong-issuer and unknown-key tokens', async () => {
    const keys = await keySet();
    const now = new Date('2026-11-24T10:00:00Z');
    const { token } = await issueAccessToken(42, tenant, keys, context, now);
    const [header, body, signature] = token.split('.') as [string, string, string];
    const flip = (text: string) => text.slice(0, 10) + (text[10] === 'A' ? 'B' : 'A') + text.slice(11);
    const refused = async (candidate: string, at = now, ctx = context) =>
      expect(verifyAccessToken(candidate, jwksOf(keys), ctx, at)).rejects.toBeInstanceOf(InvalidAccessToken);
    await refused(`${header}.${flip(body)}.${signature}`);
    await refused(`${header}.${body}.${flip(signature)}`);
    await refused(token, new Date(now.getTime() + (ACCESS_TOKEN_SECONDS + 10) * 1000));
    await refused(token, now, { ...context, audience: 'someone-else' });
    await refused(token, now, { ...context, issuer: 'https://evil.example.com' });
    const unsigned = new UnsecuredJWT({ acct: 'acct_1', mode: 'test', scope: 'customer' })
      .setIssuer(context.issuer)
      .setAudience(context.audience)
      .setSubject('42')
      .setIssuedAt()
      .setExpirationTime('15m')
      .setJti('x')
      .encode();
    await refused(unsigned, new Date());
    const { privateKey } = await generateKeyPair('ES256');
    const foreign = await new SignJWT({ acct: 'acct_1', mode: 'test', scope: 'customer' })
      .setProtectedHeader({ alg: 'ES256', kid: 'someone-elses-key' })
      .setIssuer(context.issuer)
      .setAudience(context.audience)
      .setSubject('42')
      .setIssuedAt()
      .setExpirationTime('15m')
      .setJti('x')
      .sign(privateKey);
    await refused(foreign, new Date());
  });

  it('keeps accepting tokens of the previous key after a rotation, not of the one before it', async () => {
    const first = await rotated(null);
    const now = new Date();
    const { token } = await issueAccessToken(7, tenant, first, context, now);
    const second = await rotated(first);
    expect(second.previous?.kid).toBe(first.current.kid);
    expect(jwksOf(second).keys.map((key) => key.kid)).toEqual([second.current.kid, first.current.kid]);
    await expect(verifyAccessToken(token, jwksOf(second), context, now)).resolves.toMatchObject({ customerId: 7 });
    const third = await rotated(second);
    await expect(verifyAccessToken(token, jwksOf(third), context, now)).rejects.toBeInstanceOf(InvalidAccessToken);
  });

  it('signs with the previous key until the new one has been published longer than any verifier caches keys', async () => {
    const first = await rotated(null, new Date('2026-11-24T10:00:00Z'));
    const second = await rotated(first, new Date('2026-11-24T11:00:00Z'));
    const kidAt = async (at: string) => decodeProtectedHeader((await issueAccessToken(1, tenant, second, context, new Date(at))).token).kid;
    expect(await kidAt('2026-11-24T11:01:00Z')).toBe(first.current.kid);
    expect(await kidAt('2026-11-24T11:07:00Z')).toBe(second.current.kid);
    // A first key signs at once: there is no older one.
    expect(decodeProtectedHeader((await issueAccessToken(1, tenant, first, context, new Date('2026-11-24T10:00:01Z'))).token).kid).toBe(
      first.current.kid,
    );
  });

  it('makes refresh tokens of 256 random bits and stores only their hash', async () => {
    const token = newRefreshToken();
    expect(token).toMatch(/^rt_[\w-]{43}$/);
    expect(newRefreshToken()).not.toBe(token);
    expect(refreshTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(refreshTokenHash(token)).not.toContain(token.slice(3));
    expect((await newSigningKey()).kid).toMatch(/^[\w-]{43}$/);
  });
});

describe("a customer's own view", () => {
  const record = {
    id: 7,
    name: 'Zofia',
    email: 'zofia@example.com',
    phone: '+48 12 345',
    company: 'Zofia sp. z o.o.',
    vat_id: 'PL1234567890',
    vat_validation: null,
    tax_treatment_override: null,
    tax_treatment: 'domestic' as const,
    tax_treatment_warning: null,
    notes: 'Shop only: pays late',
    guest: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-02T00:00:00.000Z',
  };

  it('shows their contact details and never the shop’s notes, nor a field it does not list', () => {
    const view = ownView({ ...record, internal_flag: true } as typeof record);
    expect(view).toEqual({
      id: 7,
      name: 'Zofia',
      email: 'zofia@example.com',
      phone: '+48 12 345',
      company: 'Zofia sp. z o.o.',
      vat_id: 'PL1234567890',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    });
    expect(Object.keys(OwnCustomerSchema.shape).sort()).toEqual([...OWN_CUSTOMER_FIELDS].sort());
    expect(OwnCustomerSchema.safeParse(view).success).toBe(true);
    expect(OwnCustomerSchema.shape).not.toHaveProperty('notes');
  });
});

describe('login lockout state', () => {
  const start = 1_800_000_000;

  it('opens a window without a count or after one ended, has checks left below ten, and locks until the window ends', () => {
    expect(lockoutState(undefined, start)).toEqual({ state: 'no-window' });
    expect(lockoutState({ failures: 3, window_start: start }, start + 60)).toEqual({ state: 'open' });
    expect(lockoutState({ failures: 9, window_start: start }, start + 60)).toEqual({ state: 'open' });
    expect(lockoutState({ failures: 10, window_start: start }, start + 60)).toEqual({ state: 'locked', retryAfter: 15 * 60 - 60 });
    expect(lockoutState({ failures: 25, window_start: start }, start + LOCKOUT_WINDOW_SECONDS - 1)).toEqual({
      state: 'locked',
      retryAfter: 1,
    });
    expect(lockoutState({ failures: 25, window_start: start }, start + LOCKOUT_WINDOW_SECONDS)).toEqual({ state: 'no-window' });
    expect(MAX_FAILURES).toBe(10);
  });
});

describe('sessions ended by the login generation', () => {
  const login = { session_generation: 2, kept_session: 'family-kept' };

  it('holds a session of the current generation, or the one a password change kept; ends every other', () => {
    expect(sessionCurrent(login, { familyId: 'family-new', generation: 2 })).toBe(true);
    expect(sessionCurrent(login, { familyId: 'family-kept', generation: 0 })).toBe(true);
    expect(sessionCurrent(login, { familyId: 'family-old', generation: 1 })).toBe(false);
    expect(sessionCurrent({ session_generation: 2, kept_session: null }, { familyId: 'family-kept', generation: 1 })).toBe(false);
    // A fresh login (generation 0): every session of it holds.
    expect(sessionCurrent({ session_generation: 0, kept_session: null }, { familyId: 'family-1', generation: 0 })).toBe(true);
  });

  it('matches generation 0 also on a login stored before generations existed', () => {
    expect(generationCondition('session_generation', ':g', 0)).toBe(
      '(attribute_not_exists(session_generation) OR session_generation = :g)',
    );
    expect(generationCondition('code_generation', ':g', 3)).toBe('code_generation = :g');
  });
});

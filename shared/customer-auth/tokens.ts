/**
 * Customer access tokens: short-lived JWTs (15 minutes) signed ES256 with a `kid`, and verified
 * with the algorithm, issuer and audience pinned and a small clock tolerance (RFC 8725). Claims:
 * `iss` (the stage's API base URL), `aud`, `sub` (the customer id), `acct`, `mode`,
 * `scope: "customer"`, `iat`, `exp`, `jti`. Refresh tokens are opaque random strings (256 bits),
 * stored only as their SHA-256, and rotated on every use (RFC 9700).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, SignJWT, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Tenant } from '#shared/auth/principal';
import { config, env } from '#shared/config';
import { ALGORITHM, signingKeyOf, type SigningKeySet } from './signing-keys';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_DAYS = 30;
/** Clocks of API Gateway's authorizer, Lambda and the issuer may differ by a few seconds. */
export const CLOCK_TOLERANCE_SECONDS = 5;

export interface TokenContext {
  /** `iss`: the stage's API base URL. */
  issuer: string;
  /** `aud`: who the token is for (the API of this stage). */
  audience: string;
}

/**
 * `iss` and `aud` of this stage's tokens. `TOKEN_ISSUER` is the stage's API base URL (CDK sets it
 * from the REST API's id and the stage; `npm start` from its address); without it, a name of the
 * stage (unit and integration tests).
 */
export const tokenContext = (): TokenContext => ({
  issuer: process.env[env.tokenIssuer] || `urn:print-shop-api:${config().stage}`,
  audience: process.env.TOKEN_AUDIENCE || `urn:print-shop-api:${config().stage}:customers`,
});

export interface CustomerClaims {
  customerId: number;
  tenant: Tenant;
  jti: string;
  /** The login session (refresh-token family) the token was issued in, when known. */
  sessionId: string | null;
}

/** A signed access token for the customer, and its lifetime in seconds. */
export async function issueAccessToken(
  customerId: number,
  tenant: Tenant,
  keys: SigningKeySet,
  context: TokenContext,
  now = new Date(),
  sessionId?: string,
): Promise<{ token: string; expiresIn: number }> {
  const { kid, key } = await signingKeyOf(keys, now);
  const issuedAt = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({
    acct: tenant.accountId,
    mode: tenant.mode,
    scope: 'customer',
    ...(sessionId ? { sid: sessionId } : {}),
  })
    .setProtectedHeader({ alg: ALGORITHM, kid, typ: 'JWT' })
    .setIssuer(context.issuer)
    .setAudience(context.audience)
    .setSubject(String(customerId))
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ACCESS_TOKEN_SECONDS)
    .setJti(randomUUID())
    .sign(key);
  return { token, expiresIn: ACCESS_TOKEN_SECONDS };
}

/** Thrown for any token that is not a valid customer access token of this stage: the caller answers 401. */
export class InvalidAccessToken extends Error {
  constructor(reason: string) {
    super(`Invalid access token: ${reason}`);
    this.name = 'InvalidAccessToken';
  }
}

const isMode = (value: unknown): value is Tenant['mode'] => value === 'test' || value === 'live';

/**
 * The customer a token names, after checking its signature against the published keys (`jwks`:
 * current and previous — an unknown `kid` fails), its algorithm (ES256 only: `none` and HMAC
 * fail), issuer, audience, expiry, and its claims' shape. Public keys only: the authorizer never
 * needs a private key.
 */
export async function verifyAccessToken(
  token: string,
  jwks: JSONWebKeySet,
  context: TokenContext,
  now = new Date(),
): Promise<CustomerClaims> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      algorithms: [ALGORITHM],
      issuer: context.issuer,
      audience: context.audience,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    }));
  } catch (error) {
    throw new InvalidAccessToken((error as { code?: string }).code ?? 'unverifiable');
  }
  const customerId = Number(payload.sub);
  if (
    payload.scope !== 'customer' ||
    typeof payload.acct !== 'string' ||
    !isMode(payload.mode) ||
    !Number.isSafeInteger(customerId) ||
    customerId < 1
  ) {
    throw new InvalidAccessToken('claims');
  }
  return {
    customerId,
    tenant: { accountId: payload.acct, mode: payload.mode },
    jti: String(payload.jti),
    sessionId: typeof payload.sid === 'string' ? payload.sid : null,
  };
}

/** A new opaque refresh token: `rt_` and 256 random bits, base64url. */
export const newRefreshToken = (): string => `rt_${randomBytes(32).toString('base64url')}`;

/** What is stored of a refresh token: its SHA-256 (a leaked table row cannot be replayed). */
export const refreshTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

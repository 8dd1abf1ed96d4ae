/**
 * Customer access tokens at the door (the authorizer's side): a token is the customer's principal
 * when its signature verifies against the published keys with the pinned algorithm, issuer and
 * audience (tokens.ts), and — read at once — its account exists, the customer still has a login
 * in that account and mode, and the token's session was neither logged out nor ended by a password
 * change or reset (the login's session generation, session-rules.ts: one comparison however many
 * sessions the change ended). The tenant is the verified token's own (`acct`, `mode`): nothing in
 * the request chooses it.
 */
import type { Principal } from '#shared/auth/principal';
import { getAccountRecord } from '#shared/accounts/repository';
import { keyLimitsOf, usageKeyOf } from '#shared/accounts/service';
import { publishedKeys } from './published-keys';
import { readSession } from './refresh-tokens';
import { readLogin } from './repository';
import { sessionCurrent } from './session-rules';
import { InvalidAccessToken, tokenContext, verifyAccessToken } from './tokens';

/** A JWS in compact form (`header.payload.signature`, base64url, a JSON header): never an API key. */
const COMPACT_JWS = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export const looksLikeAccessToken = (credential: string): boolean => COMPACT_JWS.test(credential);

export type AccessResolution = { status: 'ok'; principal: Principal } | { status: 'unknown'; reason: string };

/** The principal of a customer access token; any token that does not hold answers `unknown` (401). */
export async function resolveAccessToken(token: string, now = new Date()): Promise<AccessResolution> {
  let claims;
  try {
    claims = await verifyAccessToken(token, await publishedKeys(), tokenContext(), now);
  } catch (error) {
    if (error instanceof InvalidAccessToken) return { status: 'unknown', reason: error.message };
    throw error;
  }
  const { tenant, customerId, sessionId } = claims;
  const [account, login, session] = await Promise.all([
    getAccountRecord(tenant.accountId),
    readLogin(tenant, customerId),
    sessionId ? readSession(tenant, sessionId, customerId) : Promise.resolve(undefined),
  ]);
  if (!account) return { status: 'unknown', reason: 'no such account' };
  if (!login) return { status: 'unknown', reason: 'the customer has no login' };
  if (!session) return { status: 'unknown', reason: 'the session was logged out' };
  if (!sessionCurrent(login, session)) return { status: 'unknown', reason: 'a password change or reset ended the session' };
  const usageKey = usageKeyOf(account, tenant.mode, 'publishable');
  return {
    status: 'ok',
    principal: {
      ...tenant,
      keyId: `customer:${customerId}`,
      keyPrefix: '',
      kind: 'customer',
      customerId,
      ...(sessionId ? { sessionId } : {}),
      scopes: [],
      plan: account.plan,
      // A storefront's figure: a customer signs in through one, and their calls are counted on their own.
      limits: keyLimitsOf(account, 'publishable'),
      accountAllowedIps: account.allowed_ips,
      keyAllowedIps: [],
      ...(usageKey ? { usageKey } : {}),
    },
  };
}

/**
 * Whose quota a request spends (pure; the counting is in rate-limit.ts). Secret keys share one
 * quota per account and mode: the merchant's servers. Publishable keys live in browsers and are
 * public by design, so each one has a quota per client address — one storefront visitor cannot
 * spend another's, and no storefront traffic can spend the merchant's (docs/platform.md).
 */
import { isIP } from 'node:net';
import type { Principal, Tenant } from '#shared/auth/principal';

export interface Limits {
  perMinute: number;
  perHour?: number;
}

/**
 * The holder of a quota inside a tenant: the secret keys together, one publishable key from one
 * client, or one signed-in customer (their access tokens, at a publishable key's per-client figure).
 */
export type QuotaHolder =
  { kind: 'account' } | { kind: 'publishable'; keyId: string; client: string } | { kind: 'customer'; customerId: number };

export interface Quota {
  tenant: Tenant;
  holder: QuotaHolder;
  limits: Limits;
}

/**
 * The client a publishable key's quota is counted for: the IPv4 address, or for IPv6 the /64
 * network (one subscriber's allocation — an address per request from it must not mean a fresh
 * quota per request). IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
export function clientOf(ip = ''): string {
  const version = isIP(ip);
  if (version === 4) return ip;
  if (version !== 6) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  // A valid address (isIP said so): expand `::` (a dotted IPv4 tail counts as one group here,
  // which can only misplace groups after the first four).
  const [head = '', tail] = ip.split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    const rest = tail ? tail.split(':') : [];
    groups.push(...Array<string>(8 - groups.length - rest.length).fill('0'), ...rest);
  }
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

export type QuotaOf = (principal: Principal, sourceIp: string | undefined) => Quota;

/**
 * The quota a request spends on a route that takes no publishable key: the account and mode's, or
 * a customer token's own — a storefront's customers never spend the merchant's quota. (A
 * publishable key is refused on such routes before anything is counted.)
 */
export const accountQuota: QuotaOf = (principal) => ({
  tenant: { accountId: principal.accountId, mode: principal.mode },
  holder: principal.kind === 'customer' ? { kind: 'customer', customerId: principal.customerId ?? 0 } : { kind: 'account' },
  limits: principal.limits,
});

/**
 * The quota a request spends on a storefront route: a publishable key's per client, a secret
 * key's the account's. The principal's limits are already those of its key kind (the authorizer
 * resolves them: the plan's figure for secret keys, the per-client figure for publishable keys),
 * so this only decides who holds them. Only the storefront routes' handlers pass it to
 * `defineHandler` (`{ quota: storefrontQuota }`), so the other bundles carry none of it.
 */
export const storefrontQuota: QuotaOf = (principal, sourceIp) =>
  principal.kind === 'publishable'
    ? { ...accountQuota(principal, sourceIp), holder: { kind: 'publishable', keyId: principal.keyId, client: clientOf(sourceIp) } }
    : accountQuota(principal, sourceIp);

import type { KeyKind, Mode } from './keys';

/** The tenant: every piece of tenant data is partitioned by account and mode. */
export interface Tenant {
  accountId: string;
  mode: Mode;
}

/** What authenticated the call: a secret or publishable API key, or a customer's access token. */
export type PrincipalKind = KeyKind | 'customer';

/** Who is calling, as resolved by the authorizer. */
export interface Principal extends Tenant {
  /** The API key's id; for a customer token `customer:<id>`. */
  keyId: string;
  /** The API key's first characters; empty for a customer token. */
  keyPrefix: string;
  kind: PrincipalKind;
  /** The customer a customer access token acts for (`kind: 'customer'` only). */
  customerId?: number;
  /** The login session (refresh-token family) of a customer access token. */
  sessionId?: string;
  scopes: string[];
  plan: string;
  /**
   * The limits this key is counted against: for secret keys the account's per-minute figure (plan
   * or custom) and optional hourly cap; for publishable keys the per-client figure.
   */
  limits: { perMinute: number; perHour?: number };
  /** CIDR allowlists of the account and of the key; an empty list allows every address. */
  accountAllowedIps: string[];
  keyAllowedIps: string[];
  /**
   * API Gateway usage identifier key of the account for this mode and key kind (deployed stages:
   * each has its own usage plan tier); never put in the context.
   */
  usageKey?: string;
}

/**
 * API Gateway passes authorizer context values as strings; this is the one place that
 * encodes and decodes them, used by the authorizer and by the handler middleware.
 */
export function principalToContext(principal: Principal): Record<string, string> {
  return {
    accountId: principal.accountId,
    mode: principal.mode,
    keyId: principal.keyId,
    keyPrefix: principal.keyPrefix,
    kind: principal.kind,
    scopes: principal.scopes.join(','),
    plan: principal.plan,
    ratePerMinute: String(principal.limits.perMinute),
    ratePerHour: principal.limits.perHour ? String(principal.limits.perHour) : '',
    accountAllowedIps: principal.accountAllowedIps.join(','),
    keyAllowedIps: principal.keyAllowedIps.join(','),
    customerId: principal.customerId ? String(principal.customerId) : '',
    sessionId: principal.sessionId ?? '',
  };
}

const kindOf = (value: unknown): PrincipalKind => (value === 'publishable' || value === 'customer' ? value : 'secret');

const list = (value: unknown): string[] =>
  String(value ?? '')
    .split(',')
    .filter(Boolean);

export function principalFromContext(context: Record<string, unknown> | null | undefined): Principal | undefined {
  if (!context || typeof context.accountId !== 'string' || (context.mode !== 'test' && context.mode !== 'live')) {
    return undefined;
  }
  // A customer principal without its customer would act for nobody: no principal at all.
  if (context.kind === 'customer' && !(Number(context.customerId) > 0)) return undefined;
  return {
    accountId: context.accountId,
    mode: context.mode,
    keyId: String(context.keyId ?? ''),
    keyPrefix: String(context.keyPrefix ?? ''),
    kind: kindOf(context.kind),
    scopes: list(context.scopes),
    plan: String(context.plan ?? 'starter'),
    limits: {
      perMinute: Number(context.ratePerMinute) || 100,
      ...(Number(context.ratePerHour) > 0 ? { perHour: Number(context.ratePerHour) } : {}),
    },
    accountAllowedIps: list(context.accountAllowedIps),
    keyAllowedIps: list(context.keyAllowedIps),
    ...(Number(context.customerId) > 0 ? { customerId: Number(context.customerId) } : {}),
    ...(context.sessionId ? { sessionId: String(context.sessionId) } : {}),
  };
}

/** The customer a call acts for when a customer access token made it; undefined for API keys. */
export const customerOf = (principal: Pick<Principal, 'kind' | 'customerId'>): number | undefined =>
  principal.kind === 'customer' ? principal.customerId : undefined;

/** The signed-in customer on a route of their own (`customer: 'self'`: the guard admits nothing but a customer token there). */
export function signedInCustomer(principal: Pick<Principal, 'kind' | 'customerId'>): number {
  const customerId = customerOf(principal);
  if (customerId === undefined) throw new Error('signedInCustomer: the route admits customer tokens only');
  return customerId;
}

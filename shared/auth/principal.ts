import type { KeyKind, Mode } from './keys';

/** The tenant: every piece of tenant data is partitioned by account and mode. */
export interface Tenant {
  accountId: string;
  mode: Mode;
}

/** Who is calling, as resolved by the authorizer. */
export interface Principal extends Tenant {
  keyId: string;
  keyPrefix: string;
  kind: KeyKind;
  scopes: string[];
  plan: string;
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
  };
}

export function principalFromContext(context: Record<string, unknown> | null | undefined): Principal | undefined {
  if (!context || typeof context.accountId !== 'string' || (context.mode !== 'test' && context.mode !== 'live')) {
    return undefined;
  }
  return {
    accountId: context.accountId,
    mode: context.mode,
    keyId: String(context.keyId ?? ''),
    keyPrefix: String(context.keyPrefix ?? ''),
    kind: context.kind === 'publishable' ? 'publishable' : 'secret',
    scopes: String(context.scopes ?? '').split(',').filter(Boolean),
    plan: String(context.plan ?? 'starter'),
  };
}

/**
 * Scopes are `<group>:read` / `<group>:write`, plus `keys:write`, `account:write` (the account's
 * name and company details, and its carriers' credentials) and `*`.
 * A `write` scope includes the `read` scope of the same group (as with Stripe restricted keys).
 */
export const scopeGroups = [
  'orders',
  'customers',
  'products',
  'production',
  'invoices',
  'quotes',
  'carts',
  'files',
  'shipments',
  'webhooks',
  'audit',
  'events',
] as const;

export type ScopeGroup = (typeof scopeGroups)[number];
export type Scope = `${ScopeGroup}:${'read' | 'write'}` | 'keys:write' | 'account:write' | 'auth:customer' | '*';

export const allScopes: readonly Scope[] = [
  ...scopeGroups.flatMap((group) => [`${group}:read`, `${group}:write`] as Scope[]),
  'keys:write',
  'account:write',
  'auth:customer',
  '*',
];

/** Publishable keys (storefronts) get exactly these, never more. */
export const publishableScopes: readonly Scope[] = ['products:read', 'carts:read', 'carts:write', 'auth:customer'];

export function isScope(value: string): value is Scope {
  return (allScopes as readonly string[]).includes(value);
}

/** True when `granted` covers `required`. */
export function grants(granted: readonly string[], required: Scope): boolean {
  if (granted.includes('*') || granted.includes(required)) return true;
  if (required.endsWith(':read')) return granted.includes(required.replace(/:read$/, ':write'));
  return false;
}

/** The first required scope that `granted` does not cover, or undefined when all are covered. */
export function missingScope(granted: readonly string[], required: readonly Scope[]): Scope | undefined {
  return required.find((scope) => !grants(granted, scope));
}

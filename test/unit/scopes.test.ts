import { describe, expect, it } from 'vitest';
import { allScopes, grants, isScope, missingScope, publishableScopes } from '#shared/auth/scopes';

describe('scopes', () => {
  it('grants everything to *', () => {
    for (const scope of allScopes) expect(grants(['*'], scope)).toBe(true);
  });

  it('lets a write scope read the same group, never the reverse', () => {
    expect(grants(['customers:write'], 'customers:read')).toBe(true);
    expect(grants(['customers:read'], 'customers:write')).toBe(false);
    expect(grants(['orders:write'], 'customers:read')).toBe(false);
  });

  it('names the first missing scope', () => {
    expect(missingScope(['customers:read'], ['customers:read', 'orders:read'])).toBe('orders:read');
    expect(missingScope(['customers:read', 'orders:read'], ['customers:read', 'orders:read'])).toBeUndefined();
    expect(missingScope([], [])).toBeUndefined();
  });

  it('keeps publishable keys away from customer and order data', () => {
    expect(missingScope(publishableScopes, ['customers:read'])).toBe('customers:read');
    expect(missingScope(publishableScopes, ['orders:read'])).toBe('orders:read');
    expect(missingScope(publishableScopes, ['products:read'])).toBeUndefined();
  });

  it('recognises only catalogued scopes', () => {
    expect(isScope('customers:read')).toBe(true);
    expect(isScope('customers:admin')).toBe(false);
    expect(isScope('keys:write')).toBe(true);
  });
});

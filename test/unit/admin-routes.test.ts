import { describe, expect, it } from 'vitest';
import type { Account } from '#admin/api/types';
import { canReadWebhooks, canWriteWebhooks, keyFormatProblem, maskKey } from '#admin/lib/access';
import { deliveryFiltersQuery, parseDeliveryFilters, parseRoute, pathFor } from '#admin/lib/routes';

describe('admin addresses', () => {
  it('parses every view, and refuses anything else', () => {
    expect(parseRoute('/admin')).toEqual({ name: 'orders' });
    expect(parseRoute('/admin/')).toEqual({ name: 'orders' });
    expect(parseRoute('/')).toEqual({ name: 'orders' });
    expect(parseRoute('/admin/settings/webhooks')).toEqual({ name: 'webhooks' });
    expect(parseRoute('/admin/settings/webhooks/new')).toEqual({ name: 'webhook-new' });
    expect(parseRoute('/admin/settings/webhooks/12')).toEqual({ name: 'webhook', id: 12 });
    expect(parseRoute('/admin/settings/webhooks/12/')).toEqual({ name: 'webhook', id: 12 });
    expect(parseRoute('/admin/settings/webhooks/12/edit')).toEqual({ name: 'webhook-edit', id: 12 });
    expect(parseRoute('/admin/settings/webhooks/12/deliveries/wh_abc')).toEqual({ name: 'delivery', id: 12, deliveryId: 'wh_abc' });
    for (const path of [
      '/admin/settings/webhooks/0',
      '/admin/settings/webhooks/abc',
      '/admin/settings/webhooks/12/nope',
      '/admin/orders/0',
      '/admin/orders/7/x',
      '/admin/production/jobs',
      '/admin/production/machines/abc',
      '/admin/customers',
      '/admin/settings/webhooks/1/deliveries/wh_a/x',
    ]) {
      expect(parseRoute(path).name, path).toBe('not-found');
    }
  });

  it('builds the addresses it parses', () => {
    const routes = [
      { name: 'webhooks' },
      { name: 'webhook-new' },
      { name: 'webhook', id: 3 },
      { name: 'webhook-edit', id: 3 },
      { name: 'delivery', id: 3, deliveryId: 'wh_0VbbXNd8QFXpa5CuEqh866Lq' },
      { name: 'orders' },
      { name: 'order', id: 42 },
      { name: 'production' },
      { name: 'machines' },
      { name: 'machine', id: 2 },
      { name: 'invoices' },
      { name: 'invoice', id: 17 },
      { name: 'shipments' },
      { name: 'shipment', id: 5 },
    ] as const;
    for (const route of routes) expect(parseRoute(pathFor(route))).toEqual(route);
  });

  it('keeps delivery filters in the query string, dropping what is invalid', () => {
    expect(parseDeliveryFilters('?status=failed&event=order.created&page=3')).toEqual({
      status: 'failed',
      event: 'order.created',
      page: 3,
    });
    expect(parseDeliveryFilters('?status=retrying&page=0')).toEqual({ page: 1 });
    expect(parseDeliveryFilters('')).toEqual({ page: 1 });
    expect(deliveryFiltersQuery({ page: 1 })).toBe('');
    expect(deliveryFiltersQuery({ status: 'pending', event: 'invoice.paid', page: 2 })).toBe('?status=pending&event=invoice.paid&page=2');
  });
});

describe('admin access', () => {
  const account = (scopes: string[]): Account => ({
    id: 'acct_1',
    name: 'Shop',
    plan: 'starter',
    currency: 'EUR',
    tax_rate: 19,
    tax_rates: { standard: 19, reduced: 7, zero: 0, exempt: 0 },
    shipping_tax_category: 'standard',
    mode: 'test',
    limits: { per_minute: 100, per_hour: null },
    key: { id: 'key_1', prefix: 'sk_test_AbCd', kind: 'secret', scopes },
    company: null,
  });

  it('applies the API’s scope rules: write includes read, * includes all', () => {
    expect(canReadWebhooks(account(['webhooks:read']))).toBe(true);
    expect(canWriteWebhooks(account(['webhooks:read']))).toBe(false);
    expect(canReadWebhooks(account(['webhooks:write']))).toBe(true);
    expect(canWriteWebhooks(account(['*']))).toBe(true);
    expect(canReadWebhooks(account(['customers:read']))).toBe(false);
  });

  it('accepts secret keys only, explaining why not', () => {
    expect(keyFormatProblem('sk_test_abc123')).toBeUndefined();
    expect(keyFormatProblem('  sk_live_ABC123  ')).toBeUndefined();
    expect(keyFormatProblem('')).toMatch(/Paste/);
    expect(keyFormatProblem('pk_test_abc')).toMatch(/publishable key/);
    expect(keyFormatProblem('Bearer sk_test_abc')).toMatch(/starts with sk_test_/);
  });

  it('masks a key for display', () => {
    expect(maskKey('sk_test_AbCdEfGhIjKlMnOp')).toBe('sk_test_AbCd…MnOp');
    expect(maskKey('sk_test_short')).toBe('sk_test_…');
  });
});

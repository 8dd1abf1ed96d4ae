import { describe, expect, it } from 'vitest';
import { customerOf, principalFromContext, principalToContext, signedInCustomer, type Principal } from '#shared/auth/principal';
import { looksLikeAccessToken } from '#shared/customer-auth/access';
import { tenantKeys } from '#shared/db/keys';
import { accountQuota, storefrontQuota } from '#shared/limits/quota';
import { orderCreationFor, orderListFor, orderReaderOf } from '#shared/orders/ownership';
import { CustomerOrderCreateSchema, OrderCreateSchema, SHOP_LINE_FIELDS } from '#shared/orders/schema';
import { parseOrThrow } from '#shared/http/validation';
import { routes } from '#shared/routes';

const tenant = { accountId: 'acct_1', mode: 'test' as const };
const customer: Principal = {
  ...tenant,
  keyId: 'customer:42',
  keyPrefix: '',
  kind: 'customer',
  customerId: 42,
  sessionId: 'family-1',
  scopes: [],
  plan: 'starter',
  limits: { perMinute: 60 },
  accountAllowedIps: [],
  keyAllowedIps: [],
};
const secret: Principal = {
  ...customer,
  keyId: 'key_1',
  keyPrefix: 'sk_test_abcd',
  kind: 'secret',
  scopes: ['*'],
  limits: { perMinute: 100 },
};
delete secret.customerId;
delete secret.sessionId;

const line = { product_id: 7, quantity: 100, options: {}, file_ids: [] };

describe('a customer principal', () => {
  it('survives the authorizer context (strings only) with its customer and session', () => {
    const context = principalToContext(customer);
    expect(Object.values(context).every((value) => typeof value === 'string')).toBe(true);
    expect(principalFromContext(context)).toEqual(customer);
    expect(principalFromContext(principalToContext(secret))).toEqual(secret);
  });

  it('is refused without its customer: a customer principal acting for nobody is no principal', () => {
    expect(principalFromContext({ ...principalToContext(customer), customerId: '' })).toBeUndefined();
    expect(principalFromContext({ ...principalToContext(customer), customerId: 'x' })).toBeUndefined();
  });

  it('names its customer; a key names none', () => {
    expect(customerOf(customer)).toBe(42);
    expect(customerOf(secret)).toBeUndefined();
    expect(signedInCustomer(customer)).toBe(42);
    expect(() => signedInCustomer(secret)).toThrow();
  });

  it("spends its own quota, never the merchant's", () => {
    expect(accountQuota(customer, '203.0.113.9').holder).toEqual({ kind: 'customer', customerId: 42 });
    expect(storefrontQuota(customer, '203.0.113.9').holder).toEqual({ kind: 'customer', customerId: 42 });
    expect(accountQuota(secret, '203.0.113.9').holder).toEqual({ kind: 'account' });
    expect(tenantKeys.rateWindow(tenant, 'minute', 60, { customerId: 42 }).pk).toBe('T#acct_1#test#RATE#CUSTOMER#42');
    expect(tenantKeys.rateWindow(tenant, 'minute', 60).pk).toBe('T#acct_1#test#RATE');
  });

  it('keeps its Idempotency-Keys apart from every other caller', () => {
    const sortKeys = [
      tenantKeys.idempotency(tenant, { kind: 'secret' }, 'h').sk,
      tenantKeys.idempotency(tenant, { kind: 'publishable' }, 'h').sk,
      tenantKeys.idempotency(tenant, { kind: 'customer', customerId: 42 }, 'h').sk,
      tenantKeys.idempotency(tenant, { kind: 'customer', customerId: 43 }, 'h').sk,
      // Storefront visitors: per publishable key and client address.
      tenantKeys.idempotency(tenant, { kind: 'publishable', keyId: 'key_pk', client: '203.0.113.7' }, 'h').sk,
      tenantKeys.idempotency(tenant, { kind: 'publishable', keyId: 'key_pk', client: '203.0.113.8' }, 'h').sk,
      tenantKeys.idempotency(tenant, { kind: 'publishable', keyId: 'key_pk2', client: '203.0.113.7' }, 'h').sk,
    ];
    expect(new Set(sortKeys).size).toBe(7);
    expect(sortKeys[0]).toBe('idempotency#h');
  });
});

describe('orders for a customer token', () => {
  it('implies the customer and refuses another (403); its body has no shipping charge', () => {
    expect(orderCreationFor(customer, { items: [line] })).toMatchObject({ customer_id: 42, shipping: 0 });
    expect(orderCreationFor(customer, { customer_id: 42, items: [line] })).toMatchObject({ customer_id: 42 });
    expect(() => orderCreationFor(customer, { customer_id: 43, items: [line] })).toThrow(expect.objectContaining({ code: 'forbidden' }));
    const refused = CustomerOrderCreateSchema.safeParse({ items: [{ product_id: 7, quantity: 100 }], shipping: 5 });
    expect(refused.success).toBe(false);
  });

  it("refuses a line's price and description, naming each field: they are the shop's", () => {
    // A value the shop may send for each (an exemption reason goes with the exempt category).
    const shopValues = { unit_price: 0, description: 'Free', tax_category: 'zero', tax_exemption_reason: 'Steuerfrei nach § 4 UStG' };
    for (const field of SHOP_LINE_FIELDS) {
      const body = { items: [{ product_id: 7, quantity: 100, [field]: shopValues[field] }] };
      expect(() => parseOrThrow(CustomerOrderCreateSchema, body, 'request body')).toThrow(
        expect.objectContaining({ details: [{ field: `items.0.${field}`, message: 'is set by the shop' }] }),
      );
      const shopLine = field === 'tax_exemption_reason' ? { ...body.items[0], tax_category: 'exempt' } : body.items[0];
      expect(OrderCreateSchema.safeParse({ customer_id: 1, items: [shopLine] }).success, field).toBe(true);
    }
  });

  it("takes an API key's order as it is: customer named, shipping its own", () => {
    expect(orderCreationFor(secret, { customer_id: 43, items: [line], shipping: 500 })).toMatchObject({ customer_id: 43, shipping: 500 });
    expect(OrderCreateSchema.safeParse({ items: [{ product_id: 7, quantity: 100 }] }).success).toBe(false);
  });

  it("lists a customer's own orders only", () => {
    const query = { page: 1, per_page: 20 } as Parameters<typeof orderListFor>[1];
    expect(orderListFor(customer, query).customer_id).toBe(42);
    expect(() => orderListFor(customer, { ...query, customer_id: 43 })).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(orderListFor(secret, { ...query, customer_id: 43 }).customer_id).toBe(43);
    expect(orderReaderOf(customer)).toBe(42);
    expect(orderReaderOf(secret)).toBeUndefined();
  });
});

describe('telling a customer token from an API key', () => {
  it('takes a compact JWS for a token and never a key', () => {
    expect(looksLikeAccessToken('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln')).toBe(true);
    expect(looksLikeAccessToken('eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.')).toBe(true); // refused later, by the verifier
    for (const key of ['sk_test_' + 'a'.repeat(32), 'pk_live_' + 'b'.repeat(32), 'eyJ.abc', 'a.b.c', 'eyJhbGc.x.y z']) {
      expect(looksLikeAccessToken(key), key).toBe(false);
    }
  });
});

describe('the route table for customer tokens', () => {
  it("opens only reads and the customer's own writes, and never a route of the shop's administration", () => {
    const open = routes.filter((route) => route.customer);
    for (const route of open) {
      expect(route.id, route.id).toMatch(
        /^(auth\.(me|meUpdate|password)|orders\.(list|get|create)|addresses\.|products\.(list|get|calculate)|legacy-products\.(list|get|calculate)|files\.(upload|createUpload|complete|list|get|download|ofOrder)$|cart\.|proofs\.(list|get|approve|requestChanges)$)/,
      );
    }
    // The customer's own routes are not a storefront's (a publishable key names no customer).
    for (const route of open.filter((candidate) => candidate.customer === 'self')) expect(route.storefront).toBeUndefined();
    // `path` routes name the customer by `{id}`, which the guard compares with the token's customer.
    for (const route of open.filter((candidate) => candidate.customer === 'path')) expect(route.path).toMatch(/^\/v1\/customers\/\{id\}\//);
  });
});

import { describe, expect, it } from 'vitest';
import { resolveAddress, snapshotAddress } from '#shared/orders/addresses';
import { MAX_LINE_QUANTITY, OrderCreateSchema, OrderListQuerySchema, OrderUpdateSchema } from '#shared/orders/schema';
import { MAX_QUANTITY } from '#shared/products/schema';
import type { AddressRecord, CustomerRecord } from '#shared/customers/stored';

const fieldsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join('.')) ?? [];

describe('order request schemas', () => {
  it('turns money into minor units and defaults the optional parts', () => {
    const parsed = OrderCreateSchema.parse({ customer_id: 1, items: [{ product_id: 2, quantity: 3, unit_price: 12.35 }] });
    expect(parsed).toEqual({
      customer_id: 1,
      items: [{ product_id: 2, quantity: 3, unit_price: 1235, options: {}, file_ids: [] }],
      shipping: 0,
    });
  });

  it('refuses a due date that is not a calendar date', () => {
    for (const due of ['2026-02-30', '2026-13-01', '1.12.2026', '2026-12-01T10:00:00Z']) {
      expect(
        fieldsOf(OrderCreateSchema.safeParse({ customer_id: 1, items: [{ product_id: 1, quantity: 1 }], due_date: due })),
        due,
      ).toEqual(['due_date']);
    }
  });

  it('refuses an empty update, items with status, and an address by id and inline', () => {
    expect(fieldsOf(OrderUpdateSchema.safeParse({}))).toEqual(['']);
    expect(fieldsOf(OrderUpdateSchema.safeParse({ status: 'confirmed', items: [{ product_id: 1, quantity: 1 }] }))).toEqual(['items']);
    expect(fieldsOf(OrderUpdateSchema.safeParse({ shipping_address_id: 3, shipping_address: null }))).toEqual(['shipping_address_id']);
    expect(OrderUpdateSchema.parse({ notes: null })).toEqual({ notes: null });
  });

  it('reads created_from / created_to as whole UTC days or exact instants', () => {
    expect(OrderListQuerySchema.parse({ created_from: '2026-11-01', created_to: '2026-11-30' })).toMatchObject({
      created_from: '2026-11-01T00:00:00.000Z',
      created_to: '2026-11-30T23:59:59.999Z',
      page: 1,
      per_page: 25,
    });
    expect(OrderListQuerySchema.parse({ created_from: '2026-11-01T10:00:00+02:00' }).created_from).toBe('2026-11-01T08:00:00.000Z');
    for (const bad of ['2026-11-01T10:00', 'yesterday', '2026-02-30', '1700000000'])
      expect(fieldsOf(OrderListQuerySchema.safeParse({ created_from: bad })), bad).toEqual(['created_from']);
    expect(fieldsOf(OrderListQuerySchema.safeParse({ created_from: '2026-12-01', created_to: '2026-11-01' }))).toEqual(['created_to']);
    expect(fieldsOf(OrderListQuerySchema.safeParse({ starting_after: '4', page: '2' }))).toEqual(['page']);
  });
});

describe('order addresses', () => {
  const address = (id: number, type: 'billing' | 'shipping'): AddressRecord => ({
    id,
    customer_id: 1,
    type,
    is_default: false,
    name: `Address ${id}`,
    company: null,
    line1: 'Hauptstraße 1',
    line2: null,
    postal_code: '10115',
    city: 'Berlin',
    region: null,
    country: 'DE',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  });
  const customer = { id: 1, default_shipping_address_id: 2, default_billing_address_id: null } as unknown as CustomerRecord;
  const owner = { customer, addresses: [address(1, 'billing'), address(2, 'shipping')] };

  it('copies by id, inline or the default, and leaves an address alone when nothing is said on update', () => {
    const problems: { field: string; message: string }[] = [];
    expect(resolveAddress('billing', { id: 1 }, owner, true, problems)?.name).toBe('Address 1');
    expect(resolveAddress('shipping', {}, owner, true, problems)?.name).toBe('Address 2');
    expect(resolveAddress('billing', {}, owner, true, problems)).toBeNull();
    expect(resolveAddress('billing', {}, owner, false, problems)).toBeUndefined();
    expect(resolveAddress('billing', { inline: null }, owner, false, problems)).toBeNull();
    expect(problems).toEqual([]);
    expect(resolveAddress('shipping', { id: 7 }, owner, true, problems)).toBeUndefined();
    expect(problems).toEqual([{ field: 'shipping_address_id', message: 'customer 1 has no address with id 7' }]);
  });

  it('keeps the copy in one field order whatever the source', () => {
    expect(Object.keys(snapshotAddress({ country: 'DE', city: 'B', postal_code: '1', line1: 'L', name: 'N' }))).toEqual([
      'name',
      'company',
      'line1',
      'line2',
      'postal_code',
      'city',
      'region',
      'country',
    ]);
  });
});

describe('order line bounds', () => {
  it("equal the products' quantity bound", () => {
    expect(MAX_LINE_QUANTITY).toBe(MAX_QUANTITY);
  });
});

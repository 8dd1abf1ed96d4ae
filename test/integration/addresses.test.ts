import { describe, expect, inject, it } from 'vitest';
import { AddressSchema } from '#shared/customers/schema';
import { call, uniqueEmail } from '#test/support/http';
import { ofKind, storedEvents } from '#test/support/store';

const { shop, other } = inject('fixtures');
const testTenant = { accountId: shop.accountId, mode: 'test' as const };

const berlin = { type: 'billing', name: 'Anna Schmidt', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' };

async function newCustomer() {
  const response = await call('POST', '/v1/customers', { body: { name: 'Address Owner', email: uniqueEmail('addr') } });
  return response.body.data as { id: number };
}

async function addAddress(customerId: number, body: Record<string, unknown> = {}) {
  const response = await call('POST', `/v1/customers/${customerId}/addresses`, { body: { ...berlin, ...body } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

const defaultsOf = async (customerId: number) =>
  (await call('GET', `/v1/customers/${customerId}/addresses`)).body.data
    .filter((address: { is_default: boolean }) => address.is_default)
    .map((address: { id: number; type: string }) => `${address.type}:${address.id}`)
    .sort();

describe('customer addresses', () => {
  it('adds an address, normalising the country, and reads it back', async () => {
    const customer = await newCustomer();
    const address = await addAddress(customer.id, { country: 'de', line2: 'Hinterhaus', company: 'Druckerei' });
    expect(AddressSchema.strict().parse(address)).toMatchObject({
      customer_id: customer.id,
      country: 'DE',
      line2: 'Hinterhaus',
      is_default: true,
    });
    const read = await call('GET', `/v1/customers/${customer.id}/addresses/${address.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(address);
    const list = await call('GET', `/v1/customers/${customer.id}/addresses`);
    expect(list.body.data).toEqual([address]);
    expect(list.body.pagination.total).toBe(1);
  });

  it('records address changes as customer.updated events', async () => {
    const customer = await newCustomer();
    const address = await addAddress(customer.id);
    const events = await storedEvents(testTenant);
    const event = ofKind(events, 'customer.updated').find((item) => item.data.address?.id === address.id);
    expect(event?.data.change).toBe('address.created');
    expect(event?.data.customer.id).toBe(customer.id);
  });

  it('refuses an unknown country, a bad type and missing fields with 422', async () => {
    const customer = await newCustomer();
    const response = await call('POST', `/v1/customers/${customer.id}/addresses`, { body: { type: 'home', country: 'XX', name: 'A' } });
    expect(response.status).toBe(422);
    const fields = response.body.error.details!.map((detail: { field: string }) => detail.field).sort();
    expect(fields).toEqual(['city', 'country', 'line1', 'postal_code', 'type']);
    expect((await call('GET', `/v1/customers/${customer.id}/addresses`)).body.data).toEqual([]);
  });

  it('keeps one default per type: the first is default, a new default replaces it', async () => {
    const customer = await newCustomer();
    const first = await addAddress(customer.id);
    const second = await addAddress(customer.id, { line1: 'Second 2' });
    expect(second.is_default).toBe(false);
    const shipping = await addAddress(customer.id, { type: 'shipping' });
    expect(shipping.is_default).toBe(true);
    expect(await defaultsOf(customer.id)).toEqual([`billing:${first.id}`, `shipping:${shipping.id}`].sort());

    const promoted = await call('PUT', `/v1/customers/${customer.id}/addresses/${second.id}`, { body: { is_default: true } });
    expect(promoted.body.data.is_default).toBe(true);
    expect(await defaultsOf(customer.id)).toEqual([`billing:${second.id}`, `shipping:${shipping.id}`].sort());

    // Moving the default billing address to shipping makes it the shipping default only if asked.
    const moved = await call('PUT', `/v1/customers/${customer.id}/addresses/${second.id}`, { body: { type: 'shipping' } });
    expect(moved.body.data.type).toBe('shipping');
    expect(await defaultsOf(customer.id)).toEqual([`shipping:${shipping.id}`]);
  });

  it('keeps exactly one default when two requests promote different addresses at once', async () => {
    const customer = await newCustomer();
    const addresses = [];
    for (let i = 0; i < 4; i++) addresses.push(await addAddress(customer.id, { line1: `Street ${i}` }));
    const responses = await Promise.all(
      addresses.map((address) => call('PUT', `/v1/customers/${customer.id}/addresses/${address.id}`, { body: { is_default: true } })),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(await defaultsOf(customer.id)).toHaveLength(1);
  });

  it('clears the default when the default address is deleted', async () => {
    const customer = await newCustomer();
    const address = await addAddress(customer.id);
    const deleted = await call('DELETE', `/v1/customers/${customer.id}/addresses/${address.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: address.id, deleted: true });
    expect((await call('GET', `/v1/customers/${customer.id}/addresses/${address.id}`)).status).toBe(404);
    const next = await addAddress(customer.id, { line1: 'After 1' });
    expect(next.is_default).toBe(true);
  });

  it('answers 404 for an address of another customer, another account or an unknown customer', async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const address = await addAddress(a.id);
    expect((await call('GET', `/v1/customers/${b.id}/addresses/${address.id}`)).status).toBe(404);
    expect((await call('GET', `/v1/customers/${a.id}/addresses/${address.id}`, { key: other.secretTest })).status).toBe(404);
    expect((await call('GET', `/v1/customers/${a.id}/addresses/${address.id}`, { key: shop.secretLive })).status).toBe(404);
    expect((await call('POST', '/v1/customers/999999/addresses', { body: berlin })).status).toBe(404);
    expect((await call('PUT', `/v1/customers/${b.id}/addresses/${address.id}`, { body: { city: 'X' } })).status).toBe(404);
    expect((await call('GET', `/v1/customers/${a.id}/addresses/${address.id}`)).body.data.city).toBe('Berlin');
  });

  it('updates only the fields sent and clears optional ones with null', async () => {
    const customer = await newCustomer();
    const address = await addAddress(customer.id, { line2: 'Hof', region: 'BE' });
    const updated = await call('PUT', `/v1/customers/${customer.id}/addresses/${address.id}`, { body: { city: 'Potsdam', line2: null } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ city: 'Potsdam', line2: null, region: 'BE', line1: address.line1, is_default: true });
  });

  it('caps a customer at 25 addresses with 409', async () => {
    const customer = await newCustomer();
    await Promise.all(Array.from({ length: 25 }, (_, i) => addAddress(customer.id, { line1: `Street ${i}` })));
    const refused = await call('POST', `/v1/customers/${customer.id}/addresses`, { body: berlin });
    expect(refused.status).toBe(409);
    expect((await call('GET', `/v1/customers/${customer.id}/addresses`)).body.data).toHaveLength(25);
  });
});

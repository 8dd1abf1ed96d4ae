import { describe, expect, inject, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { CustomerSchema } from '#shared/customers/schema';
import { call, dynamoDbWork, uniqueEmail } from '#test/support/http';
import { walkByCursor } from '#test/support/cursor-walk';
import { ofKind, storedCustomer, storedEmailOwner, storedEvents, storedTotal } from '#test/support/store';

const { shop, other } = inject('fixtures');
const testTenant = { accountId: shop.accountId, mode: 'test' as const };

async function createCustomer(overrides: Record<string, unknown> = {}, key?: string) {
  const response = await call('POST', '/v1/customers', { key, body: { name: 'Anna Schmidt', email: uniqueEmail(), ...overrides } });
  expect(response.status).toBe(201);
  return response.body.data;
}

describe('customers', () => {
  it('creates a customer and reads it back', async () => {
    const email = uniqueEmail('anna');
    const created = await call('POST', '/v1/customers', {
      body: { name: 'Anna Schmidt', email, phone: '+49 30 1234', company: 'Druckerei Schmidt', vat_id: 'DE136695976' },
    });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    expect(CustomerSchema.strict().parse(created.body.data)).toMatchObject({
      name: 'Anna Schmidt',
      email,
      company: 'Druckerei Schmidt',
      notes: null,
    });
    expect(Number.isInteger(created.body.data.id)).toBe(true);

    const read = await call('GET', `/v1/customers/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);
  });

  it('writes customer.created in the same transaction as the customer', async () => {
    const customer = await createCustomer();
    const events = await storedEvents(testTenant);
    const event = ofKind(events, 'customer.created').find((item) => item.data.customer.id === customer.id);
    expect(event).toBeDefined();
    expect(event!.event_id).toMatch(/^evt_/);
    expect(event!.data.customer).toEqual(customer);
    expect(event!.mode).toBe('test');
    expect(event!.expires_at).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers 404 for the same id with the live key and with another account', async () => {
    const customer = await createCustomer();
    const live = await call('GET', `/v1/customers/${customer.id}`, { key: shop.secretLive });
    expect(live.status).toBe(404);
    expect(live.body.error.code).toBe('not_found');
    const foreign = await call('GET', `/v1/customers/${customer.id}`, { key: other.secretTest });
    expect(foreign.status).toBe(404);
    const foreignUpdate = await call('PUT', `/v1/customers/${customer.id}`, { key: other.secretTest, body: { name: 'Hijack' } });
    expect(foreignUpdate.status).toBe(404);
    expect((await call('GET', `/v1/customers/${customer.id}`)).body.data.name).toBe('Anna Schmidt');
  });

  it('refuses a request without Authorization, an unknown key and a malformed one with 401', async () => {
    for (const key of [null, 'sk_test_' + 'x'.repeat(32), 'not-a-key']) {
      const response = await call('GET', '/v1/customers', { key });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ success: false, error: { code: 'unauthorized' } });
      expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
    }
  });

  it('refuses a key without customers:write with 403 insufficient_scope and writes nothing', async () => {
    const before = await storedTotal(testTenant, 'customers');
    const response = await call('POST', '/v1/customers', { key: shop.customersReadOnly, body: { name: 'X', email: uniqueEmail() } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('insufficient_scope');
    expect(response.body.error.message).toContain('customers:write');
    expect(await storedTotal(testTenant, 'customers')).toBe(before);
    expect((await call('GET', '/v1/customers', { key: shop.customersReadOnly })).status).toBe(200);
  });

  it('refuses a publishable key on customer routes', async () => {
    const response = await call('GET', '/v1/customers', { key: shop.publishableTest });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('forbidden');
    expect(response.body.error.message).toContain('storefront');
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const response = await call('POST', '/v1/customers', { rawBody: '{"name": "Anna", "email": ' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });

  it('answers a body that is not JSON content with 415', async () => {
    const response = await call('POST', '/v1/customers', {
      rawBody: 'name=Anna',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('unsupported_media_type');
  });

  it('answers an invalid email with 422 naming the field', async () => {
    const response = await call('POST', '/v1/customers', { body: { name: 'Anna', email: 'not-an-email' } });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details).toEqual([{ field: 'email', message: 'must be a valid email address' }]);
  });

  it('names missing and unknown fields', async () => {
    const response = await call('POST', '/v1/customers', { body: { nickname: 'A' } });
    expect(response.status).toBe(422);
    const fields = response.body.error.details!.map((detail: { field: string }) => detail.field).sort();
    expect(fields).toEqual(['email', 'name', 'nickname']);
  });

  it('refuses a duplicate email (any case) with 409 and writes nothing', async () => {
    const email = uniqueEmail('dup');
    const first = await createCustomer({ email });
    const totalBefore = await storedTotal(testTenant, 'customers');
    const eventsBefore = (await storedEvents(testTenant)).length;
    const duplicate = await call('POST', '/v1/customers', { body: { name: 'Other', email: email.toUpperCase() } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('conflict');
    expect(duplicate.body.error.details![0]!.field).toBe('email');
    expect(await storedTotal(testTenant, 'customers')).toBe(totalBefore);
    expect((await storedEvents(testTenant)).length).toBe(eventsBefore);
    expect(await storedEmailOwner(testTenant, email)).toBe(first.id);
  });

  it('lets exactly one of many concurrent creates with the same email win', async () => {
    const email = uniqueEmail('race');
    const totalBefore = await storedTotal(testTenant, 'customers');
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call('POST', '/v1/customers', { body: { name: `Racer ${i}`, email } })),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(7);
    expect(await storedTotal(testTenant, 'customers')).toBe(totalBefore + 1);
  });

  it('allows the same email in another account and in live mode', async () => {
    const email = uniqueEmail('shared');
    await createCustomer({ email });
    await createCustomer({ email }, other.secretTest);
    await createCustomer({ email }, shop.secretLive);
  });

  it('updates only the fields sent, clears with null, and moves the email uniqueness', async () => {
    const oldEmail = uniqueEmail('old');
    const customer = await createCustomer({ email: oldEmail, notes: 'VIP' });
    const newEmail = uniqueEmail('new');
    const updated = await call('PUT', `/v1/customers/${customer.id}`, { body: { email: newEmail, notes: null, phone: '+49 1' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Anna Schmidt', email: newEmail, notes: null, phone: '+49 1' });
    expect(updated.body.data.updated_at >= customer.updated_at).toBe(true);
    expect(await storedEmailOwner(testTenant, newEmail)).toBe(customer.id);
    expect(await storedEmailOwner(testTenant, oldEmail)).toBeUndefined();
    // The old email is free again.
    await createCustomer({ email: oldEmail });
    const events = await storedEvents(testTenant);
    expect(
      events.some(
        (event) => event.kind === 'customer.updated' && event.data.customer.id === customer.id && event.data.customer.email === newEmail,
      ),
    ).toBe(true);
  });

  it('refuses an update to an email another customer has, changing nothing', async () => {
    const a = await createCustomer();
    const b = await createCustomer();
    const response = await call('PUT', `/v1/customers/${b.id}`, { body: { email: a.email, name: 'Changed' } });
    expect(response.status).toBe(409);
    expect((await call('GET', `/v1/customers/${b.id}`)).body.data).toEqual(b);
  });

  it('deletes a customer, its email marker and its addresses', async () => {
    const customer = await createCustomer();
    await call('POST', `/v1/customers/${customer.id}/addresses`, {
      body: { type: 'billing', name: 'A', line1: 'Street 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
    });
    const totalBefore = await storedTotal(testTenant, 'customers');
    const deleted = await call('DELETE', `/v1/customers/${customer.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: customer.id, deleted: true });
    expect(await storedCustomer(testTenant, customer.id)).toBeUndefined();
    expect(await storedEmailOwner(testTenant, customer.email)).toBeUndefined();
    expect(await storedTotal(testTenant, 'customers')).toBe(totalBefore - 1);
    expect((await call('GET', `/v1/customers/${customer.id}/addresses`)).status).toBe(404);
    expect((await call('DELETE', `/v1/customers/${customer.id}`)).status).toBe(404);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['999999', 'abc', '0', '-1']) {
      const response = await call('GET', `/v1/customers/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
  });

  it("lists a known customer's orders as empty and an unknown customer's as 404", async () => {
    const customer = await createCustomer();
    const orders = await call('GET', `/v1/customers/${customer.id}/orders`);
    expect(orders.status).toBe(200);
    expect(orders.body).toEqual({
      success: true,
      data: [],
      pagination: { page: 1, per_page: 25, total: 0, total_pages: 0, total_capped: false, has_more: false, next_cursor: null },
    });
    expect((await call('GET', '/v1/customers/999999/orders')).status).toBe(404);
  });
});

describe('customer lists', () => {
  it('paginates newest first with per_page 25 by default and a total from the counter', async () => {
    const key = other.secretTest;
    const before = await call('GET', '/v1/customers', { key });
    const created = [];
    for (let i = 0; i < 30; i++) created.push(await createCustomer({ name: `Lister ${String(i).padStart(2, '0')}` }, key));
    const first = await call('GET', '/v1/customers', { key });
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({
      page: 1,
      per_page: 25,
      total: before.body.pagination.total! + 30,
      total_pages: Math.ceil((before.body.pagination.total! + 30) / 25),
      total_capped: false,
      has_more: true,
      next_cursor: String(first.body.data[24]!.id),
    });
    expect(first.body.data).toHaveLength(25);
    expect(first.body.data[0]!.id).toBe(created[29]!.id);
    const second = await call('GET', '/v1/customers?page=2&per_page=10', { key });
    expect(second.body.data.map((c: { id: number }) => c.id)).toEqual(
      created
        .slice(10, 20)
        .reverse()
        .map((c) => c.id),
    );
    const beyond = await call('GET', '/v1/customers?page=999', { key });
    expect(beyond.body.data).toEqual([]);
  });

  it('refuses out-of-range or non-integer paging with 422', async () => {
    for (const query of ['per_page=101', 'per_page=0', 'page=0', 'page=1.5', 'page=abc']) {
      const response = await call('GET', `/v1/customers?${query}`);
      expect(response.status, query).toBe(422);
      expect(response.body.error.details![0]!.field).toBe(query.split('=')[0]);
    }
  });

  it('filters by exact email (case-insensitive) and by name prefix', async () => {
    const email = uniqueEmail('Filter');
    const target = await createCustomer({ email, name: 'Zacharias Filterman' });
    const byEmail = await call('GET', `/v1/customers?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(byEmail.body.data).toEqual([target]);
    expect(byEmail.body.pagination.total).toBe(1);
    const none = await call('GET', `/v1/customers?email=${encodeURIComponent(uniqueEmail('nobody'))}`);
    expect(none.body.data).toEqual([]);
    const byName = await call('GET', '/v1/customers?q=zacharias%20filt');
    expect(byName.body.data.map((c: { id: number }) => c.id)).toContain(target.id);
    expect(byName.body.data.every((c: { name: string }) => c.name.toLowerCase().startsWith('zacharias filt'))).toBe(true);
  });

  it('pages by cursor, newest first and by name prefix, each page reading only its own keys', async () => {
    const created = await createAccount({ name: 'Cursor Customers', plan: 'enterprise' });
    const key = created.keys.secret_test.key;
    // Names in another order than ids: "Cursor 07", "Cursor 14", "Cursor 01", …
    const made: { id: number; name: string }[] = [];
    for (let i = 0; i < 12; i++) made.push(await createCustomer({ name: `Cursor ${String((i * 7) % 12).padStart(2, '0')}` }, key));
    await createCustomer({ name: 'Other name' }, key);
    // The cursor customer, the page's keys and one more, its items, the total (a name prefix: counted on the keys),
    // and the account (record and settings: the seller's country for the tax treatment; no customer here has a billing address).
    const walk = (query: string) => walkByCursor(`/v1/customers?per_page=5&${query}`, key, { calls: 5, items: 1 + 6 + 5 + 14 + 2 });
    const ids = made.map((customer) => customer.id);
    const all = await walk('');
    expect(all.slice(1)).toEqual(ids.toReversed());
    const named = made.toSorted((a, b) => (a.name < b.name ? -1 : 1)).map((customer) => customer.id);
    expect(await walk('q=CURSOR')).toEqual(named);
    // A cursor outside the prefix still has its place in name order: "Other name" sorts after every "Cursor …".
    const past = await call('GET', `/v1/customers?q=cursor&starting_after=${all[0]}`, { key });
    expect(past.body).toMatchObject({ data: [], pagination: { total: 12, has_more: false, next_cursor: null } });
    const page = await call('GET', `/v1/customers?per_page=5&starting_after=${ids[6]}`, { key });
    expect(dynamoDbWork(page).commands.toSorted()).toEqual(['BatchGetItem[2]', 'BatchGetItem[5]', 'GetItem[1]', 'GetItem[1]', 'Query[6]']);
    expect(page.body.data.map((customer: { id: number }) => customer.id)).toEqual(ids.slice(1, 6).toReversed());
  });

  it("refuses a cursor the tenant does not have (another tenant's or mode's id), with a page number or with an email", async () => {
    const created = await createAccount({ name: 'Cursor Tenant', plan: 'enterprise' });
    const key = created.keys.secret_test.key;
    const own = await createCustomer({}, key);
    const shopCustomer = await createCustomer();
    expect(shopCustomer.id).toBeGreaterThan(own.id);
    for (const [query, field, requestKey] of [
      [`starting_after=${shopCustomer.id}`, 'starting_after', key],
      [`starting_after=${own.id}`, 'starting_after', created.keys.secret_live.key],
      [`starting_after=${own.id}&page=2`, 'page', key],
      [`starting_after=${own.id}&email=${encodeURIComponent(own.email)}`, 'starting_after', key],
      ['starting_after=0', 'starting_after', key],
      ['starting_after=abc', 'starting_after', key],
    ] as const) {
      const response = await call('GET', `/v1/customers?${query}`, { key: requestKey });
      expect(response.status, query).toBe(422);
      expect(
        response.body.error.details!.map((detail: { field: string }) => detail.field),
        query,
      ).toEqual([field]);
    }
    const unknown = await call('GET', `/v1/customers?starting_after=${shopCustomer.id}`, { key });
    expect(unknown.body.error.details![0]!.message).toBe(`No customer with id ${shopCustomer.id}`);
    // Its own id positions the cursor: nothing is older than its first customer.
    expect((await call('GET', `/v1/customers?starting_after=${own.id}`, { key })).body.data).toEqual([]);
  });
});

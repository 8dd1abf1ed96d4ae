/**
 * A customer's VAT ID, its VIES check and tax treatment, through the real handlers. VIES is the
 * sandbox here (docs/tax.md#the-sandbox): ATU10000005 valid, ATU20000004 invalid, ATU30100002
 * unavailable. The shop's company is German, so an Austrian buyer is cross-border.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CustomerSchema } from '#shared/customers/schema';
import { auditRecords } from '#test/support/audit';
import { call, uniqueEmail } from '#test/support/http';
import { freshShop, type Shop } from '#test/support/shop';
import { ofKind, storedCustomer, storedEvents, storedTotal } from '#test/support/store';

let shop: Shop;

const viennaBilling = { type: 'billing', name: 'Wiener Druck', line1: 'Teststraße 1', postal_code: '1010', city: 'Wien', country: 'AT' };

async function createCustomer(body: Record<string, unknown>) {
  const response = await call('POST', '/v1/customers', {
    key: shop.secretTest,
    body: { name: 'Wiener Druck', email: uniqueEmail('vat'), ...body },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

async function addBilling(id: number) {
  const response = await call('POST', `/v1/customers/${id}/addresses`, { key: shop.secretTest, body: viennaBilling });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

const read = async (id: number) => {
  const response = await call('GET', `/v1/customers/${id}`, { key: shop.secretTest });
  expect(response.status).toBe(200);
  return response.body.data;
};

describe("a customer's VAT ID", () => {
  beforeAll(async () => {
    shop = await freshShop('VAT Shop');
    const company = await call('PUT', '/v1/account', {
      key: shop.secretTest,
      body: {
        company: {
          legal_name: 'Druckerei am Hafen GmbH',
          address: { name: 'Druckerei am Hafen GmbH', line1: 'Kaiserkai 1', postal_code: '20457', city: 'Hamburg', country: 'DE' },
          vat_id: 'DE136695976',
        },
      },
    });
    expect(company.status, JSON.stringify(company.body)).toBe(200);
  });

  it('stores a VAT ID VIES knows as valid, and a billing address in another member state makes the customer a reverse charge', async () => {
    const created = await createCustomer({ vat_id: 'atu 1000 0005' });
    expect(CustomerSchema.strict().parse(created)).toMatchObject({
      vat_id: 'ATU10000005',
      vat_validation: {
        status: 'valid',
        country: 'AT',
        number: 'ATU10000005',
        name: 'Sandbox Druck GmbH',
        address: 'Teststraße 1\n1010 Wien',
        // The seller's own VAT ID was sent as the requester.
        consultation_number: 'SANDBOX-ATU10000005',
        unavailable_reason: null,
      },
      tax_treatment_override: null,
      // No address yet: no billing country, domestic.
      tax_treatment: 'domestic',
      tax_treatment_warning: null,
    });
    expect(Date.parse(created.vat_validation!.checked_at)).toBeGreaterThan(Date.now() - 60_000);
    const stored = await storedCustomer(shop.tenant, created.id);
    expect(stored).toMatchObject({
      vat_id: 'ATU10000005',
      vat_validation: { status: 'valid', consultation_number: 'SANDBOX-ATU10000005' },
    });
    expect(stored).not.toHaveProperty('tax_treatment');

    await addBilling(created.id);
    expect(await read(created.id)).toMatchObject({ tax_treatment: 'eu_reverse_charge', tax_treatment_warning: null });
    const listed = await call('GET', '/v1/customers', { key: shop.secretTest });
    expect(listed.body.data.find((customer) => customer.id === created.id)).toMatchObject({ tax_treatment: 'eu_reverse_charge' });
  });

  it('stores a VAT ID VIES refuses as invalid: a consumer sale with a warning', async () => {
    const created = await createCustomer({ vat_id: 'ATU20000004' });
    expect(created.vat_validation).toMatchObject({ status: 'invalid', number: 'ATU20000004', name: null, address: null });
    await addBilling(created.id);
    const customer = await read(created.id);
    expect(customer.tax_treatment).toBe('eu_consumer');
    expect(customer.tax_treatment_warning).toMatch(/VIES does not know the VAT ID/);
  });

  it('creates the customer when VIES does not answer: unavailable stored, domestic VAT with a warning', async () => {
    const created = await createCustomer({ vat_id: 'ATU30100002' });
    expect(created.vat_validation).toMatchObject({
      status: 'unavailable',
      unavailable_reason: 'MS_UNAVAILABLE',
      consultation_number: null,
    });
    await addBilling(created.id);
    const customer = await read(created.id);
    expect(customer.tax_treatment).toBe('domestic');
    expect(customer.tax_treatment_warning).toMatch(/VIES did not answer/);
  });

  it('refuses a malformed VAT ID with 422 naming the field, and writes nothing', async () => {
    const total = await storedTotal(shop.tenant, 'customers');
    const events = (await storedEvents(shop.tenant)).length;
    const refused = await call('POST', '/v1/customers', {
      key: shop.secretTest,
      body: { name: 'Typo GmbH', email: uniqueEmail(), vat_id: 'DE123456789' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      { field: 'vat_id', message: 'is not a VAT ID of Germany: its check digits do not match (a digit mistyped?)' },
    ]);
    expect(await storedTotal(shop.tenant, 'customers')).toBe(total);
    expect((await storedEvents(shop.tenant)).length).toBe(events);

    const customer = await createCustomer({});
    const update = await call('PUT', `/v1/customers/${customer.id}`, { key: shop.secretTest, body: { vat_id: 'GB123456789' } });
    expect(update.status).toBe(422);
    expect(update.body.error.details![0]!.field).toBe('vat_id');
    expect(await storedCustomer(shop.tenant, customer.id)).toMatchObject({ version: 1 });
  });

  it('asks VIES again when the VAT ID changes, and drops the answer when it is cleared; the events carry the fields', async () => {
    const customer = await createCustomer({});
    expect(customer).toMatchObject({ vat_id: null, vat_validation: null, tax_treatment: 'domestic' });
    const set = await call('PUT', `/v1/customers/${customer.id}`, { key: shop.secretTest, body: { vat_id: 'ATU10000005' } });
    expect(set.status).toBe(200);
    expect(set.body.data.vat_validation).toMatchObject({ status: 'valid', number: 'ATU10000005' });
    const changed = await call('PUT', `/v1/customers/${customer.id}`, { key: shop.secretTest, body: { vat_id: 'ATU20000004' } });
    expect(changed.body.data.vat_validation).toMatchObject({ status: 'invalid', number: 'ATU20000004' });
    const cleared = await call('PUT', `/v1/customers/${customer.id}`, { key: shop.secretTest, body: { vat_id: null } });
    expect(cleared.body.data).toMatchObject({ vat_id: null, vat_validation: null });

    const events = await storedEvents(shop.tenant);
    const updates = ofKind(events, 'customer.updated').filter((event) => event.data.customer.id === customer.id);
    expect(updates.map((event) => event.data.customer.vat_validation?.status ?? null)).toEqual(
      expect.arrayContaining(['valid', 'invalid', null]),
    );
    const created = ofKind(events, 'customer.created').find((event) => event.data.customer.id === customer.id);
    expect(created!.data.customer).toEqual(customer);
  });

  it('audits setting and clearing the override with who, when, old and new; the override wins over the derived treatment', async () => {
    const since = new Date().toISOString();
    const customer = await createCustomer({ vat_id: 'ATU30100002' });
    await addBilling(customer.id);
    const set = await call('PUT', `/v1/customers/${customer.id}`, {
      key: shop.secretTest,
      body: { tax_treatment_override: 'eu_reverse_charge' },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({
      tax_treatment_override: 'eu_reverse_charge',
      tax_treatment: 'eu_reverse_charge',
      tax_treatment_warning: null,
    });
    const cleared = await call('PUT', `/v1/customers/${customer.id}`, { key: shop.secretTest, body: { tax_treatment_override: null } });
    expect(cleared.body.data).toMatchObject({ tax_treatment_override: null, tax_treatment: 'domestic' });
    // Unchanged: no audited change.
    await call('PUT', `/v1/customers/${customer.id}`, { key: shop.secretTest, body: { tax_treatment_override: null, notes: 'same' } });

    const logs = await auditRecords(
      shop.secretTest,
      `from=${encodeURIComponent(since)}&path_prefix=/v1/customers/${customer.id}&method=PUT`,
      3,
    );
    const records = logs.body.data.filter((record) => record.route === 'customers.update');
    const changes = records.filter((record) => record.changes.length > 0);
    expect(changes.map((record) => record.changes)).toEqual(
      expect.arrayContaining([
        [{ resource: 'customer', resource_id: String(customer.id), field: 'tax_treatment_override', old: null, new: 'eu_reverse_charge' }],
        [{ resource: 'customer', resource_id: String(customer.id), field: 'tax_treatment_override', old: 'eu_reverse_charge', new: null }],
      ]),
    );
    expect(changes).toHaveLength(2);
    for (const record of changes) {
      expect(record.key_prefix).toBe(shop.secretTest.slice(0, 12));
      expect(record.actor).toBe(`key:${shop.secretTest.slice(0, 12)}`);
      expect(Date.parse(record.created_at)).toBeGreaterThanOrEqual(Date.parse(since));
    }
  });

  it('audits an override set on creation', async () => {
    const since = new Date().toISOString();
    const customer = await createCustomer({ tax_treatment_override: 'export' });
    expect(customer).toMatchObject({ tax_treatment_override: 'export', tax_treatment: 'export' });
    const logs = await auditRecords(shop.secretTest, `from=${encodeURIComponent(since)}&path_prefix=/v1/customers&method=POST`, 1);
    const record = logs.body.data.find((entry) => entry.changes.some((change) => change.resource_id === String(customer.id)));
    expect(record?.changes).toEqual([
      { resource: 'customer', resource_id: String(customer.id), field: 'tax_treatment_override', old: null, new: 'export' },
    ]);
  });

  it('checks the VAT ID with VIES again on POST /v1/customers/{id}/vat-check, and refuses a customer without one', async () => {
    const customer = await createCustomer({ vat_id: 'ATU10000005' });
    const first = customer.vat_validation!.checked_at;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const checked = await call('POST', `/v1/customers/${customer.id}/vat-check`, { key: shop.secretTest });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    expect(checked.body.data.vat_validation).toMatchObject({ status: 'valid', number: 'ATU10000005' });
    expect(checked.body.data.vat_validation!.checked_at > first).toBe(true);
    expect(await storedCustomer(shop.tenant, customer.id)).toMatchObject({
      version: 2,
      vat_validation: { checked_at: checked.body.data.vat_validation!.checked_at },
    });
    const event = ofKind(await storedEvents(shop.tenant), 'customer.updated').find(
      (entry) => entry.data.customer.id === customer.id && entry.data.customer.vat_validation?.checked_at !== first,
    );
    expect(event).toBeDefined();

    const without = await createCustomer({});
    const refused = await call('POST', `/v1/customers/${without.id}/vat-check`, { key: shop.secretTest });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details![0]!.field).toBe('vat_id');
    expect((await call('POST', '/v1/customers/999999/vat-check', { key: shop.secretTest })).status).toBe(404);
  });
});

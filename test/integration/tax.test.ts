/**
 * Tax categories, the account's rates and the sale's tax treatment through the real handlers:
 * the account's rates (and the single `tax_rate` of before), products and legacy products of a
 * category, orders and their invoices with a breakdown per category and rate, a sale abroad.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { TAX_NOTES } from '#shared/tax/categories';
import { call } from '#test/support/http';
import { enableInvoicing, invoiceOrder } from '#test/support/invoices';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { freshShop, type Shop } from '#test/support/shop';

/** A document as its bytes (the typed `call` parses JSON). */
const download = (key: string, path: string) => fetch(`${inject('fixtures').api}${path}`, { headers: { Authorization: `Bearer ${key}` } });

describe("the account's tax rates", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await freshShop('Tax Rates Shop');
  });

  it('shows the German rates per category by default, the standard one also as tax_rate', async () => {
    const account = await call('GET', '/v1/account', { key: shop.secretTest });
    expect(account.status).toBe(200);
    expect(account.body.data).toMatchObject({
      tax_rate: 19,
      tax_rates: { standard: 19, reduced: 7, zero: 0, exempt: 0 },
      shipping_tax_category: 'standard',
    });
  });

  it('changes the rates sent with tax_rates, and the standard rate with the single tax_rate of before', async () => {
    const set = await call('PUT', '/v1/account', { key: shop.secretTest, body: { tax_rates: { reduced: 5 } } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ tax_rate: 19, tax_rates: { standard: 19, reduced: 5, zero: 0, exempt: 0 } });
    const legacy = await call('PUT', '/v1/account', { key: shop.secretTest, body: { tax_rate: 20 } });
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(200);
    expect(legacy.body.data).toMatchObject({ tax_rate: 20, tax_rates: { standard: 20, reduced: 5, zero: 0, exempt: 0 } });
    const shipping = await call('PUT', '/v1/account', { key: shop.secretTest, body: { shipping_tax_category: 'reduced' } });
    expect(shipping.body.data).toMatchObject({ shipping_tax_category: 'reduced', tax_rate: 20 });
    const shown = await call('GET', '/v1/account', { key: shop.secretLive });
    expect(shown.body.data).toMatchObject({ tax_rate: 20, tax_rates: { standard: 20, reduced: 5 }, shipping_tax_category: 'reduced' });
    await call('PUT', '/v1/account', {
      key: shop.secretTest,
      body: { tax_rates: { standard: 19, reduced: 7 }, shipping_tax_category: 'standard' },
    });
  });

  it('refuses a rate out of range or with 3 decimals, a zero or exempt rate other than 0, and two different standard rates', async () => {
    for (const [body, field] of [
      [{ tax_rates: { standard: 101 } }, 'tax_rates.standard'],
      [{ tax_rates: { reduced: 7.125 } }, 'tax_rates.reduced'],
      [{ tax_rates: { zero: 5 } }, 'tax_rates.zero'],
      [{ tax_rates: { exempt: 1 } }, 'tax_rates.exempt'],
      [{ tax_rate: -1 }, 'tax_rate'],
      [{ tax_rate: 19, tax_rates: { standard: 20 } }, 'tax_rate'],
      [{ shipping_tax_category: 'exempt' }, 'shipping_tax_category'],
    ] as const) {
      const refused = await call('PUT', '/v1/account', { key: shop.secretTest, body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.error.details!.map((detail) => detail.field)).toContain(field);
    }
    expect((await call('GET', '/v1/account', { key: shop.secretTest })).body.data.tax_rates).toEqual({
      standard: 19,
      reduced: 7,
      zero: 0,
      exempt: 0,
    });
  });

  it('reads an account stored with only the single tax_rate as that standard rate and the default reduced one', async () => {
    const created = await createAccount({ name: 'Old Rate Shop', plan: 'enterprise', taxRate: 20 });
    const account = await call('GET', '/v1/account', { key: created.keys.secret_test.key });
    expect(account.body.data).toMatchObject({ tax_rate: 20, tax_rates: { standard: 20, reduced: 7, zero: 0, exempt: 0 } });
  });
});

describe('products and legacy products of a tax category', () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await freshShop('Tax Category Shop');
  });

  it("prices a reduced-rate product at the account's reduced rate, with its breakdown", async () => {
    const created = await call('POST', '/v1/products', {
      key: shop.secretTest,
      body: { name: 'Brochure A4', category: 'brochures', base_price: 2.5, tax_category: 'reduced' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ tax_category: 'reduced', tax_exemption_reason: null });
    const priced = await call('POST', `/v1/products/${created.body.data.id}/calculate`, { key: shop.secretTest, body: { quantity: 101 } });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    // 252.50 × 7 % = 17.675 → 17.68
    expect(priced.body.data).toMatchObject({
      subtotal: 252.5,
      tax_category: 'reduced',
      tax_rate: 7,
      taxes: [{ category: 'reduced', rate: 7, taxable_amount: 252.5, tax_amount: 17.68 }],
      tax: 17.68,
      total: 270.18,
    });
  });

  it('prices a product without a category as standard, and an exempt one at 0 % with its reason', async () => {
    const plain = await call('POST', '/v1/products', { key: shop.secretTest, body: { name: 'Flyer', category: 'flyers', base_price: 1 } });
    expect(plain.body.data.tax_category).toBe('standard');
    const priced = await call('POST', `/v1/products/${plain.body.data.id}/calculate`, { key: shop.secretTest, body: { quantity: 100 } });
    expect(priced.body.data).toMatchObject({ tax_category: 'standard', tax_rate: 19, tax: 19, total: 119 });
    expect(priced.body.data.taxes).toEqual([{ category: 'standard', rate: 19, taxable_amount: 100, tax_amount: 19 }]);
    const exempt = await call('PUT', `/v1/products/${plain.body.data.id}`, {
      key: shop.secretTest,
      body: { tax_category: 'exempt', tax_exemption_reason: 'Exempt under §4 Nr. 21 UStG' },
    });
    expect(exempt.status, JSON.stringify(exempt.body)).toBe(200);
    const free = await call('POST', `/v1/products/${plain.body.data.id}/calculate`, { key: shop.secretTest, body: { quantity: 100 } });
    expect(free.body.data).toMatchObject({ tax_category: 'exempt', tax_rate: 0, tax: 0, total: 100 });
  });

  it('refuses an exempt product without its reason, and a reason for another category', async () => {
    const missing = await call('POST', '/v1/products', {
      key: shop.secretTest,
      body: { name: 'Course', category: 'courses', base_price: 1, tax_category: 'exempt' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toEqual([{ field: 'tax_exemption_reason', message: 'is required when tax_category is exempt' }]);
    const stray = await call('POST', '/v1/products', {
      key: shop.secretTest,
      body: { name: 'Flyer', category: 'flyers', base_price: 1, tax_exemption_reason: 'no reason' },
    });
    expect(stray.status).toBe(422);
    expect(stray.body.error.details).toEqual([{ field: 'tax_exemption_reason', message: 'is only for tax_category exempt' }]);
    const unknown = await call('POST', '/v1/products', {
      key: shop.secretTest,
      body: { name: 'Flyer', category: 'flyers', base_price: 1, tax_category: 'super-reduced' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details![0]!.field).toBe('tax_category');
  });

  it('prices a legacy product of the reduced category at 7 %', async () => {
    const created = await call('POST', '/v1/legacy-products', {
      key: shop.secretTest,
      body: { name: 'Booklet', tax_category: 'reduced', prices: [{ format: 'A5', color: '4/4', quantity: 100, pages: 8, price: 49.9 }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.tax_category).toBe('reduced');
    const priced = await call('POST', `/v1/legacy-products/${created.body.data.id}/calculate`, {
      key: shop.secretTest,
      body: { format: 'A5', color: '4/4', quantity: 100, pages: 8 },
    });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    // 49.90 × 7 % = 3.493 → 3.49
    expect(priced.body.data).toMatchObject({
      price: 49.9,
      tax_category: 'reduced',
      tax_rate: 7,
      taxes: [{ category: 'reduced', rate: 7, taxable_amount: 49.9, tax_amount: 3.49 }],
      tax: 3.49,
      total: 53.39,
    });
  });
});

describe("an order's tax treatment and breakdown, and its invoice", () => {
  let shop: Shop;
  let brochure: number;
  let flyer: number;
  const address = (country: string, overrides: Record<string, unknown> = {}) => ({
    name: 'Buyer',
    line1: 'Street 1',
    postal_code: '1000',
    city: 'City',
    country,
    ...overrides,
  });
  const order = async (customerId: number, billingCountry: string, shipping = 4.9) =>
    newOrder(shop.secretTest, {
      customer_id: customerId,
      items: [
        { product_id: brochure, quantity: 101 },
        { product_id: flyer, quantity: 1000 },
      ],
      shipping,
      shipping_address: address(billingCountry),
      billing_address: address(billingCountry),
    });

  beforeAll(async () => {
    shop = await freshShop('Tax Treatment Shop');
    await enableInvoicing(shop.accountId);
    brochure = (await newProduct(shop.secretTest, { name: 'Brochure A4', base_price: 2.5, tax_category: 'reduced' })).id;
    flyer = (await newProduct(shop.secretTest, { name: 'Flyer A6', base_price: 0.1 })).id;
  });

  it('charges a German buyer 7 % on the brochure and 19 % on the flyers and shipping, one group per rate, and invoices exactly that', async () => {
    const customer = await newCustomer(shop.secretTest);
    const created = await order(customer.id, 'DE');
    expect(created.items.map((line: { tax_category: string; tax_rate: number }) => [line.tax_category, line.tax_rate])).toEqual([
      ['reduced', 7],
      ['standard', 19],
    ]);
    // reduced: 252.50 × 7 % = 17.675 → 17.68; standard: (100.00 + 4.90) × 19 % = 19.931 → 19.93
    expect(created).toMatchObject({
      tax_treatment: 'domestic',
      tax_treatment_warning: null,
      shipping_tax_category: 'standard',
      shipping_tax_rate: 19,
      subtotal: 352.5,
      shipping: 4.9,
      taxes: [
        { category: 'standard', rate: 19, taxable_amount: 104.9, tax_amount: 19.93 },
        { category: 'reduced', rate: 7, taxable_amount: 252.5, tax_amount: 17.68 },
      ],
      tax: 37.61,
      total: 395.01,
    });
    expect((await call('GET', `/v1/orders/${created.id}`, { key: shop.secretTest })).body.data.taxes).toEqual(created.taxes);
    await putOrder(shop.secretTest, created.id, { status: 'confirmed' });
    const invoice = await invoiceOrder(shop.secretTest, created.id);
    expect(invoice).toMatchObject({
      tax_treatment: 'domestic',
      tax_treatment_warning: null,
      customer_vat_id: null,
      vat_validation: null,
      taxes: created.taxes,
      tax: 37.61,
      total: 395.01,
      // Kept for clients of before: the same amounts per rate.
      tax_breakdown: [
        { tax_rate: 19, taxable_amount: 104.9, tax: 19.93 },
        { tax_rate: 7, taxable_amount: 252.5, tax: 17.68 },
      ],
    });
    expect(invoice.items.map((line: { tax_category: string; tax_rate: number }) => [line.tax_category, line.tax_rate])).toEqual([
      ['reduced', 7],
      ['standard', 19],
    ]);
    const xml = await download(shop.secretTest, `/v1/invoices/${invoice.id}/xml?syntax=cii`);
    expect(xml.status).toBe(200);
    const text = await xml.text();
    expect(text).toMatch(/<ram:CategoryCode>S<\/ram:CategoryCode>\s*<ram:RateApplicablePercent>7<\/ram:RateApplicablePercent>/);
  });

  it('charges a Swiss billing address nothing, as an export with its legal note', async () => {
    const customer = await newCustomer(shop.secretTest);
    const created = await order(customer.id, 'CH');
    expect(created).toMatchObject({
      tax_treatment: 'export',
      shipping_tax_category: 'export',
      shipping_tax_rate: 0,
      taxes: [{ category: 'export', rate: 0, taxable_amount: 357.4, tax_amount: 0 }],
      tax: 0,
      total: 357.4,
    });
    expect(
      created.items.every((line: { tax_category: string; tax_rate: number }) => line.tax_category === 'export' && line.tax_rate === 0),
    ).toBe(true);
    await putOrder(shop.secretTest, created.id, { status: 'confirmed' });
    const invoice = await invoiceOrder(shop.secretTest, created.id);
    expect(invoice).toMatchObject({ tax_treatment: 'export', tax: 0, total: 357.4, vat_validation: null });
    const xml = await (await download(shop.secretTest, `/v1/invoices/${invoice.id}/xml?syntax=ubl`)).text();
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-G</cbc:TaxExemptionReasonCode>');
    expect(xml).toContain(TAX_NOTES.export.text);
  });

  it("charges a French consumer the seller's own rates", async () => {
    const customer = await newCustomer(shop.secretTest);
    const created = await order(customer.id, 'FR');
    expect(created).toMatchObject({
      tax_treatment: 'eu_consumer',
      tax_treatment_warning: null,
      taxes: [
        { category: 'standard', rate: 19, taxable_amount: 104.9, tax_amount: 19.93 },
        { category: 'reduced', rate: 7, taxable_amount: 252.5, tax_amount: 17.68 },
      ],
      total: 395.01,
    });
  });

  it('charges a French business with a VAT ID valid in VIES nothing under the reverse charge, both VAT IDs and the check on its invoice', async () => {
    const customer = await newCustomer(shop.secretTest, { company: 'Imprimerie Lyon SARL', vat_id: 'FR40303265045' });
    const created = await order(customer.id, 'FR');
    expect(created).toMatchObject({
      tax_treatment: 'eu_reverse_charge',
      tax_treatment_warning: null,
      shipping_tax_category: 'reverse_charge',
      shipping_tax_rate: 0,
      taxes: [{ category: 'reverse_charge', rate: 0, taxable_amount: 357.4, tax_amount: 0 }],
      tax: 0,
      total: 357.4,
    });
    await putOrder(shop.secretTest, created.id, { status: 'confirmed' });
    const invoice = await invoiceOrder(shop.secretTest, created.id);
    expect(invoice).toMatchObject({
      tax_treatment: 'eu_reverse_charge',
      customer_vat_id: 'FR40303265045',
      vat_validation: { status: 'valid', country: 'FR', number: 'FR40303265045' },
      seller: { vat_id: 'DE123456789' },
      taxes: [{ category: 'reverse_charge', rate: 0, taxable_amount: 357.4, tax_amount: 0 }],
      total: 357.4,
    });
    // The VIES check the reverse charge relied on, copied as the customer holds it.
    const stored = (await call('GET', `/v1/customers/${customer.id}`, { key: shop.secretTest })).body.data;
    expect(invoice.vat_validation).toEqual(stored.vat_validation);
    for (const syntax of ['cii', 'ubl'] as const) {
      const xml = await (await download(shop.secretTest, `/v1/invoices/${invoice.id}/xml?syntax=${syntax}`)).text();
      // BR-AE-02: the seller's and the buyer's VAT ID; BR-AE-10: the VATEX code; the legal note.
      expect(xml, syntax).toContain('DE123456789');
      expect(xml, syntax).toContain('FR40303265045');
      expect(xml, syntax).toContain('VATEX-EU-AE');
      expect(xml, syntax).toContain(TAX_NOTES.reverse_charge.text);
    }
    const pdf = await download(shop.secretTest, `/v1/invoices/${invoice.id}/pdf?format=url`);
    expect(pdf.status).toBe(200);
  });

  it('takes a manual line of its own category, and refuses an exempt one without its reason', async () => {
    const customer = await newCustomer(shop.secretTest);
    const created = await newOrder(shop.secretTest, {
      customer_id: customer.id,
      items: [
        { product_id: flyer, quantity: 10, unit_price: 5, tax_category: 'exempt', tax_exemption_reason: 'Exempt under §4 Nr. 21 UStG' },
      ],
    });
    expect(created.items[0]).toMatchObject({ tax_category: 'exempt', tax_rate: 0, tax_exemption_reason: 'Exempt under §4 Nr. 21 UStG' });
    expect(created).toMatchObject({ tax: 0, total: 50, taxes: [{ category: 'exempt', rate: 0, taxable_amount: 50, tax_amount: 0 }] });
    const refused = await call('POST', '/v1/orders', {
      key: shop.secretTest,
      body: { customer_id: customer.id, items: [{ product_id: flyer, quantity: 10, tax_category: 'exempt' }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      { field: 'items.0.tax_exemption_reason', message: 'is required when tax_category is exempt' },
    ]);
  });
});

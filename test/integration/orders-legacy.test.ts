import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '#shared/accounts/service';
import { call, uniqueEmail } from '#test/support/http';
import { buyerAddress, enableInvoicing, invoiceOrder } from '#test/support/invoices';
import { brochure, businessCards } from '#test/support/products';

/** Legacy products on order lines: the table prices the whole run, as the calculator does. */
describe('legacy product lines', () => {
  let key: string;
  let accountId: string;
  let customerId: number;
  let legacyId: number;
  let productId: number;

  beforeAll(async () => {
    const created = await createAccount({ name: 'Legacy Lines Shop', plan: 'enterprise' });
    key = created.keys.secret_test.key;
    accountId = created.account.id;
    customerId = (await call('POST', '/v1/customers', { key, body: { name: 'Lena', email: uniqueEmail('legacy') } })).body.data.id;
    legacyId = (await call('POST', '/v1/legacy-products', { key, body: brochure() })).body.data.id;
    productId = (await call('POST', '/v1/products', { key, body: businessCards() })).body.data.id;
  });

  const legacyLine = (cell: Record<string, unknown> = {}) => ({
    legacy_product_id: legacyId,
    format: 'A4',
    color: '4/4',
    quantity: 500,
    pages: 12,
    ...cell,
  });

  it('prices a legacy line from its table (the calculator’s price) next to a product line, and confirms both into jobs', async () => {
    const calculated = await call('POST', `/v1/legacy-products/${legacyId}/calculate`, {
      key,
      body: { format: 'A4', color: '4/4', quantity: 500, pages: 12 },
    });
    const order = await call('POST', '/v1/orders', {
      key,
      body: { customer_id: customerId, items: [{ product_id: productId, quantity: 250, options: { paper: 'matt300' } }, legacyLine()] },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const [cards, run] = order.body.data.items;
    expect(cards).toMatchObject({ product_id: productId, legacy: null, price_source: 'product' });
    expect(run).toMatchObject({
      id: 2,
      product_id: null,
      legacy: { legacy_product_id: legacyId, format: 'A4', color: '4/4', pages: 12 },
      description: 'Brochure, A4 4/4, 12 pages',
      quantity: 500,
      unit_price: calculated.body.data.price,
      setup_fee: 0,
      price_source: 'table',
      total: 210.25,
    });
    expect(order.body.data.subtotal).toBeCloseTo(cards!.total + 210.25, 2);

    expect((await call('PUT', `/v1/orders/${order.body.data.id}`, { key, body: { status: 'confirmed' } })).status).toBe(200);
    const jobs = (await call('GET', `/v1/production/jobs?order_id=${order.body.data.id}`, { key })).body.data;
    expect(jobs.map((job: { product_id: number | null; quantity: number }) => [job.product_id, job.quantity]).sort()).toEqual(
      [
        [productId, 250],
        [null, 500],
      ].sort(),
    );
  });

  it('refuses a cell the table lacks with the calculator’s field names, and a line that is neither or both kinds', async () => {
    // The table's own problems, as the calculator words them…
    const refused = await call('POST', '/v1/orders', {
      key,
      body: { customer_id: customerId, items: [legacyLine({ format: 'A3' }), legacyLine({ quantity: 300 })] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual(['items.0.format', 'items.1.quantity']);
    expect(refused.body.error.details![0]!.message).toContain('valid formats: A5, A4');
    // …and lines that are neither kind, or a legacy line without its cell.
    const shapeless = await call('POST', '/v1/orders', {
      key,
      body: { customer_id: customerId, items: [{ legacy_product_id: legacyId, quantity: 5 }, { quantity: 5 }] },
    });
    expect(shapeless.status).toBe(422);
    expect(shapeless.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual([
      'items.0.format',
      'items.0.color',
      'items.0.pages',
      'items.1.product_id',
    ]);
    const both = await call('POST', '/v1/orders', {
      key,
      body: { customer_id: customerId, items: [{ ...legacyLine(), product_id: productId }] },
    });
    expect(both.status).toBe(422);
    expect(both.body.error.details).toEqual([expect.objectContaining({ field: 'items.0.product_id' })]);
  });

  it('bills a legacy run as one line of its price, so the e-invoice line is quantity × price', async () => {
    await enableInvoicing(accountId);
    const order = (
      await call('POST', '/v1/orders', { key, body: { customer_id: customerId, items: [legacyLine()], billing_address: buyerAddress() } })
    ).body.data;
    expect((await call('PUT', `/v1/orders/${order.id}`, { key, body: { status: 'confirmed' } })).status).toBe(200);
    const invoice = await invoiceOrder(key, order.id);
    expect(invoice.items).toEqual([
      expect.objectContaining({ description: 'Brochure, A4 4/4, 12 pages (500 copies)', quantity: 1, unit_price: 210.25, amount: 210.25 }),
    ]);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { PriceQuoteSchema, ProductSchema } from '#shared/products/schema';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { businessCards, createProduct, expectNoRemovedNames } from '#test/support/products';
import { storedTotal } from '#test/support/store';

const { shop, other, swiss } = inject('fixtures');
const testTenant = { accountId: shop.accountId, mode: 'test' as const };
const calculate = (id: number, body: unknown, key?: string) => call('POST', `/v1/products/${id}/calculate`, { key, body });

describe('products', () => {
  it('creates a product and reads it back in the v1.1 schema', async () => {
    const created = await call('POST', '/v1/products', { body: businessCards() });
    expect(created.status).toBe(201);
    const product = ProductSchema.strict().parse(created.body.data);
    expect(product).toMatchObject({
      name: 'Business cards',
      category: 'cards',
      is_active: true,
      min_qty: 100,
      max_qty: 5000,
      base_price: 0.12,
      price_tiers: [
        { min_qty: 250, unit_price: 0.09 },
        { min_qty: 1000, unit_price: 0.06 },
      ],
      setup_fee: 9.9,
      stock: { tracked: false, quantity: 0, low_threshold: 0 },
    });
    expect(product.options[1]).toEqual({
      code: 'finish',
      name: 'Finish',
      required: true,
      default: 'none',
      values: [
        { code: 'none', name: 'None', price_delta: 0, price_factor: null },
        { code: 'softtouch', name: 'Soft-touch', price_delta: 0.01, price_factor: 1.25 },
      ],
    });
    const read = await call('GET', `/v1/products/${product.id}`);
    expect(read.body.data).toEqual(created.body.data);
    expectNoRemovedNames(created.body);
    expectNoRemovedNames(read.body);
  });

  it('calculates the documented prices (computed by hand)', async () => {
    const { id } = await createProduct();
    const cases = [
      // 100 × 0.12 + 9.90 = 21.90; tax 19 % = 4.161 → 4.16
      { quantity: 100, options: { paper: 'matt300' }, unit_price: 0.12, subtotal: 21.9, tax: 4.16, total: 26.06 },
      // 250 × (0.09 + 0.03) + 9.90 = 39.90; tax 7.581 → 7.58
      { quantity: 250, options: { paper: 'linen' }, unit_price: 0.12, subtotal: 39.9, tax: 7.58, total: 47.48 },
      // (0.06 + 0.03 + 0.01) × 1.25 = 0.125 → 0.13; 1000 × 0.13 + 9.90 = 139.90; tax 26.581 → 26.58
      { quantity: 1000, options: { paper: 'linen', finish: 'softtouch' }, unit_price: 0.13, subtotal: 139.9, tax: 26.58, total: 166.48 },
      // (0.09 + 0.01) × 1.25 = 0.125 → 0.13; 999 × 0.13 + 9.90 = 139.77; tax 26.5563 → 26.56
      { quantity: 999, options: { paper: 'matt300', finish: 'softtouch' }, unit_price: 0.13, subtotal: 139.77, tax: 26.56, total: 166.33 },
    ];
    for (const { quantity, options, ...expected } of cases) {
      const response = await calculate(id, { quantity, options });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const quote = PriceQuoteSchema.strict().parse(response.body.data);
      expect(quote).toMatchObject({
        product_id: id,
        quantity,
        setup_fee: 9.9,
        tax_rate: 19,
        currency: 'EUR',
        production_days: 4,
        ...expected,
      });
      const lines = quote.breakdown.reduce((sum, line) => sum + Math.round(line.amount * 100), 0);
      expect(lines).toBe(Math.round(quote.subtotal * 100));
    }
    const c = await calculate(id, { quantity: 1000, options: { paper: 'linen', finish: 'softtouch' } });
    expect(c.body.data.breakdown).toEqual([
      { label: 'Base price: 1000 piece × 0.06 (tier from 1000 piece)', amount: 60 },
      { label: 'Paper: Linen 350 g (+0.03 × 1000)', amount: 30 },
      { label: 'Finish: Soft-touch (+0.01 × 1000)', amount: 10 },
      { label: 'Option factors: ×1.25 Finish: Soft-touch (rounded per piece)', amount: 30 },
      { label: 'Setup fee', amount: 9.9 },
    ]);
  });

  it("uses the account's currency and tax rate", async () => {
    const { id } = await createProduct(businessCards(), swiss.secretTest);
    const response = await calculate(id, { quantity: 1000, options: { paper: 'linen', finish: 'softtouch' } }, swiss.secretTest);
    // 139.90 × 7.7 % = 10.7723 → 10.77
    expect(response.body.data).toMatchObject({ subtotal: 139.9, tax_rate: 7.7, tax: 10.77, total: 150.67, currency: 'CHF' });
  });

  it('answers quantities outside min/max, unknown or missing options and an inactive product with 422 details', async () => {
    const { id } = await createProduct();
    const below = await calculate(id, { quantity: 99, options: { paper: 'matt300' } });
    expect(below.status).toBe(422);
    expect(below.body.error.details).toEqual([{ field: 'quantity', message: "must be at least 100 (the product's min_qty)" }]);
    expect((await calculate(id, { quantity: 5001, options: { paper: 'matt300' } })).body.error.details![0]!.field).toBe('quantity');
    const options = await calculate(id, { quantity: 100, options: { colour: 'red', finish: 'gold' } });
    expect(options.status).toBe(422);
    expect(options.body.error.details!.map((d: { field: string }) => d.field).sort()).toEqual([
      'options.colour',
      'options.finish',
      'options.paper',
    ]);
    expect((await calculate(id, { quantity: 0 })).status).toBe(422);
    expect((await calculate(id, { quantity: 1.5 })).status).toBe(422);
    await call('PUT', `/v1/products/${id}`, { body: { is_active: false } });
    const inactive = await calculate(id, { quantity: 100, options: { paper: 'matt300' } });
    expect(inactive.status).toBe(422);
    expect(inactive.body.error.details).toEqual([{ field: 'id', message: 'product is not active (is_active is false)' }]);
  });

  it('refuses the v1.0 field names with 422 naming their replacement, writing nothing', async () => {
    const before = await storedTotal(testTenant, 'products');
    const response = await call('POST', '/v1/products', {
      body: { ...businessCards(), min_qty: undefined, sku: 'BC-1', min_quantity: 100 },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details).toEqual([
      { field: 'sku', message: 'sku was removed in v1.1; identify products by id' },
      { field: 'min_quantity', message: 'min_quantity was renamed to min_qty in v1.1' },
    ]);
    expect(await storedTotal(testTenant, 'products')).toBe(before);
    const { id } = await createProduct();
    const update = await call('PUT', `/v1/products/${id}`, { body: { status: 'inactive', category_id: 4 } });
    expect(update.status).toBe(422);
    expect(update.body.error.details!.map((d: { message: string }) => d.message)).toEqual([
      'status was replaced by is_active (boolean) in v1.1',
      'category_id was replaced by category (string) in v1.1',
    ]);
    expect((await call('GET', `/v1/products/${id}`)).body.data.is_active).toBe(true);
    const list = await call('GET', '/v1/products?status=active');
    expect(list.status).toBe(422);
    expect(list.body.error.details![0]).toEqual({ field: 'status', message: 'status was replaced by is_active (boolean) in v1.1' });
  });

  it('refuses amounts with more than 2 decimals and inconsistent products', async () => {
    const money = await call('POST', '/v1/products', { body: { ...businessCards(), base_price: 0.125 } });
    expect(money.status).toBe(422);
    expect(money.body.error.details).toEqual([{ field: 'base_price', message: 'must have at most 2 decimals' }]);
    const tiers = await call('POST', '/v1/products', {
      body: {
        ...businessCards(),
        max_qty: 50,
        price_tiers: [
          { min_qty: 500, unit_price: 0.05 },
          { min_qty: 250, unit_price: 0.08 },
        ],
      },
    });
    expect(tiers.status).toBe(422);
    expect(tiers.body.error.details!.map((d: { field: string }) => d.field)).toEqual(['max_qty', 'price_tiers.1.min_qty']);
    const { id } = await createProduct();
    const update = await call('PUT', `/v1/products/${id}`, { body: { max_qty: 10 } });
    expect(update.status).toBe(422);
    expect(update.body.error.details![0]!.field).toBe('max_qty');
  });

  it('updates only the fields sent, replaces arrays, clears with null and sets stock', async () => {
    const product = await createProduct();
    const response = await call('PUT', `/v1/products/${product.id}`, {
      body: { name: 'Premium cards', description: null, price_tiers: [], stock: { tracked: true, quantity: 40 } },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      name: 'Premium cards',
      description: null,
      price_tiers: [],
      base_price: 0.12,
      options: product.options,
      stock: { tracked: true, quantity: 40, low_threshold: 0 },
    });
    const again = await call('PUT', `/v1/products/${product.id}`, { body: { stock: { low_threshold: 5 } } });
    expect(again.body.data.stock).toEqual({ tracked: true, quantity: 40, low_threshold: 5 });
    expect((await call('GET', `/v1/products/${product.id}`)).body.data).toEqual(again.body.data);
  });

  it('refuses missing keys (401), other scopes (403) and allows products:read to read and calculate', async () => {
    const { id } = await createProduct(businessCards(), swiss.secretTest);
    expect((await call('GET', '/v1/products', { key: null })).status).toBe(401);
    const customersOnly = await call('GET', '/v1/products', { key: shop.customersReadOnly });
    expect(customersOnly.status).toBe(403);
    expect(customersOnly.body.error.code).toBe('insufficient_scope');
    expect((await call('GET', `/v1/products/${id}`, { key: swiss.productsReadOnly })).status).toBe(200);
    expect((await calculate(id, { quantity: 100, options: { paper: 'linen' } }, swiss.productsReadOnly)).status).toBe(200);
    const write = await call('POST', '/v1/products', { key: swiss.productsReadOnly, body: businessCards() });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain('products:write');
    expect((await call('DELETE', `/v1/products/${id}`, { key: swiss.productsReadOnly })).status).toBe(403);
  });

  it('shows publishable keys only active products (inactive ones are 404) and lets them calculate', async () => {
    const category = `storefront-${randomUUID()}`;
    const active = await createProduct({ ...businessCards(category), name: 'Active card' });
    const archived = await createProduct({ ...businessCards(category), name: 'Archived card', is_active: false });
    const key = shop.publishableTest;
    const list = await call('GET', `/v1/products?category=${category}`, { key });
    expect(list.body.data.map((p: { id: number }) => p.id)).toEqual([active.id]);
    expect(list.body.pagination.total).toBe(1);
    expect((await call('GET', `/v1/products?category=${category}&is_active=false`, { key })).body).toMatchObject({
      data: [],
      pagination: { total: 0 },
    });
    expect((await call('GET', `/v1/products/${archived.id}`, { key })).status).toBe(404);
    expect((await calculate(archived.id, { quantity: 100, options: { paper: 'linen' } }, key)).status).toBe(404);
    expect((await calculate(active.id, { quantity: 100, options: { paper: 'linen' } }, key)).status).toBe(200);
    expect((await call('POST', '/v1/products', { key, body: businessCards() })).status).toBe(403);
    // A secret key sees both.
    expect((await call('GET', `/v1/products?category=${category}`)).body.pagination.total).toBe(2);
  });

  it('answers 404 for unknown and malformed ids, another account and the other mode', async () => {
    const { id } = await createProduct();
    for (const path of ['/v1/products/999999', '/v1/products/abc', '/v1/products/0']) expect((await call('GET', path)).status).toBe(404);
    expect((await call('GET', `/v1/products/${id}`, { key: other.secretTest })).status).toBe(404);
    expect((await call('GET', `/v1/products/${id}`, { key: shop.secretLive })).status).toBe(404);
    expect((await call('PUT', `/v1/products/${id}`, { key: other.secretTest, body: { name: 'Hijack' } })).status).toBe(404);
    expect((await calculate(id, { quantity: 100, options: { paper: 'linen' } }, other.secretTest)).status).toBe(404);
    expect((await call('DELETE', `/v1/products/${id}`, { key: other.secretTest })).status).toBe(404);
    expect((await call('GET', `/v1/products/${id}`)).body.data.name).toBe('Business cards');
  });
});

describe('product lists', () => {
  it('filters by category (name order), is_active and name prefix, alone and combined, with totals', async () => {
    const category = `Flyers-${randomUUID()}`;
    const names = ['Delta flyer', 'alpha flyer', 'Charlie flyer', 'Bravo flyer', 'alpine poster'];
    const made: { id: number }[] = [];
    for (const [i, name] of names.entries()) made.push(await createProduct({ ...businessCards(category), name, is_active: i !== 2 }));
    const ids = (response: { body: { data: { id: number }[] } }) => response.body.data.map((p) => p.id);
    const byName = (...wanted: string[]) => wanted.map((name) => made[names.indexOf(name)]!.id);

    const all = await call('GET', `/v1/products?category=${category.toUpperCase()}`);
    expect(ids(all)).toEqual(byName('alpha flyer', 'alpine poster', 'Bravo flyer', 'Charlie flyer', 'Delta flyer'));
    expect(all.body.pagination).toEqual({
      page: 1,
      per_page: 25,
      total: 5,
      total_pages: 1,
      total_capped: false,
      has_more: false,
      next_cursor: null,
    });
    const active = await call('GET', `/v1/products?category=${category}&is_active=true`);
    expect(ids(active)).toEqual(byName('alpha flyer', 'alpine poster', 'Bravo flyer', 'Delta flyer'));
    expect(active.body.pagination.total).toBe(4);
    const inactive = await call('GET', `/v1/products?category=${category}&is_active=false`);
    expect(ids(inactive)).toEqual(byName('Charlie flyer'));
    const prefix = await call('GET', `/v1/products?category=${category}&q=ALP`);
    expect(ids(prefix)).toEqual(byName('alpha flyer', 'alpine poster'));
    expect(prefix.body.pagination.total).toBe(2);
    const page2 = await call('GET', `/v1/products?category=${category}&per_page=2&page=2`);
    expect(ids(page2)).toEqual(byName('Bravo flyer', 'Charlie flyer'));

    // Moving a product to another state or category moves it between lists and counters.
    await call('PUT', `/v1/products/${made[0]!.id}`, { body: { is_active: false, name: 'Echo flyer' } });
    expect(ids(await call('GET', `/v1/products?category=${category}&is_active=false`))).toEqual([made[2]!.id, made[0]!.id]);
    await call('PUT', `/v1/products/${made[1]!.id}`, { body: { category: `${category}-other` } });
    const after = await call('GET', `/v1/products?category=${category}`);
    expect(after.body.pagination.total).toBe(4);
    expect(ids(after)).not.toContain(made[1]!.id);
  });

  it('lists all products newest first, by state newest first, and by name prefix across categories', async () => {
    const key = swiss.secretTest;
    const before = (await call('GET', '/v1/products', { key })).body.pagination.total;
    const stamp = randomUUID().slice(0, 8);
    const first = await createProduct({ ...businessCards(), name: `Zz${stamp} one` }, key);
    const second = await createProduct({ ...businessCards('posters'), name: `Zz${stamp} two`, is_active: false }, key);
    const list = await call('GET', '/v1/products?per_page=2', { key });
    expect(list.body.data.map((p: { id: number }) => p.id)).toEqual([second.id, first.id]);
    expect(list.body.pagination.total).toBe(before! + 2);
    const inactive = await call('GET', '/v1/products?is_active=false', { key });
    expect(inactive.body.data[0]!.id).toBe(second.id);
    const prefix = await call('GET', `/v1/products?q=zz${stamp}`, { key });
    expect(prefix.body.data.map((p: { id: number }) => p.id)).toEqual([first.id, second.id]);
    expect(prefix.body.pagination.total).toBe(2);
    expect((await call('GET', `/v1/products?q=zz${stamp}&is_active=true`, { key })).body.pagination.total).toBe(1);
    expectNoRemovedNames(list.body);
    for (const query of ['is_active=yes', 'per_page=101', 'category=', 'colour=red'])
      expect((await call('GET', `/v1/products?${query}`, { key })).status, query).toBe(422);
  });
});

describe('deleting products', () => {
  it('deletes an unreferenced product with its list entries and counts', async () => {
    const category = `delete-${randomUUID()}`;
    const product = await createProduct(businessCards(category));
    const before = await storedTotal(testTenant, 'products');
    const response = await call('DELETE', `/v1/products/${product.id}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ id: product.id, deleted: true });
    expect(await storedTotal(testTenant, 'products')).toBe(before - 1);
    expect((await call('GET', `/v1/products/${product.id}`)).status).toBe(404);
    expect((await call('GET', `/v1/products?category=${category}`)).body).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await call('DELETE', `/v1/products/${product.id}`)).status).toBe(404);
  });

  it('archives a product that orders reference instead of deleting it', async () => {
    const category = `archive-${randomUUID()}`;
    const product = await createProduct(businessCards(category));
    const customer = await newCustomer(shop.secretTest);
    const order = await newOrder(shop.secretTest, {
      customer_id: customer.id,
      items: [{ product_id: product.id, quantity: 100, options: { paper: 'matt300' } }],
    });
    const response = await call('DELETE', `/v1/products/${product.id}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: product.id,
      deleted: false,
      archived: true,
      product: { id: product.id, is_active: false },
    });
    expect((await call('GET', `/v1/products/${product.id}`)).body.data.is_active).toBe(false);
    expect((await call('GET', `/v1/products?category=${category}&is_active=false`)).body.pagination.total).toBe(1);
    expect((await call('GET', `/v1/products?category=${category}&is_active=true`)).body.pagination.total).toBe(0);
    // Once no order references it any more (the pending order's lines name another product), it can be deleted.
    const other = await newProduct(shop.secretTest);
    expect((await putOrder(shop.secretTest, order.id, { items: [{ product_id: other.id, quantity: 1 }] })).status).toBe(200);
    expect((await call('DELETE', `/v1/products/${product.id}`)).body.data).toEqual({ id: product.id, deleted: true });
  });
});

import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createApiKey } from '#shared/accounts/service';
import { dynamo } from '#shared/clients/dynamodb';
import { fileKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { pdfOf, uploadForm } from '#test/support/files';
import { CartSchema } from '#shared/carts/schema';
import { OrderSchema } from '#shared/orders/schema';
import { call, uniqueEmail } from '#test/support/http';
import { signUp } from '#test/support/customer-accounts';
import { brochure, businessCards, posterA2, smallTable } from '#test/support/products';
import { freshShop } from '#test/support/shop';
import type { BodyOf } from '#test/support/api-types';

/**
 * Carts over HTTP: session carts (publishable key), the signed-in customer's cart, merge on login,
 * re-pricing on read with the version checkout checks, and checkout into exactly one order.
 */
describe('carts', () => {
  let shop: { secret: string; publishable: string; accountId: string };
  let other: { secret: string; publishable: string; accountId: string };
  let cards: { id: number };
  let legacy: { id: number };

  const password = 'correct horse battery';

  async function newShop(name: string) {
    const created = await freshShop(name);
    return { secret: created.secretTest, publishable: created.publishableTest, accountId: created.accountId };
  }

  async function product(body: Record<string, unknown>) {
    const response = await call('POST', '/v1/products', { key: shop.secret, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data as { id: number };
  }

  async function signIn() {
    const email = uniqueEmail('cart');
    const registered = await signUp(shop.publishable, { email, password, name: 'Carla' });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const session = await call('POST', '/v1/auth/login', { key: shop.publishable, body: { email, password } });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    return { id: registered.body.data.id as number, token: session.body.data.access_token as string };
  }

  /** A secret test key of the shop with only these scopes. */
  const scopedKey = async (scopes: string[]) =>
    (await createApiKey({ accountId: shop.accountId, mode: 'test', kind: 'secret', scopes })).key;

  async function newCart(items: unknown[] = [], key = shop.publishable) {
    const response = await call('POST', '/v1/carts', { key, body: { items } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data;
  }

  const cardsLine = (quantity = 500, paper = 'matt300') => ({ product_id: cards.id, quantity, options: { paper } });
  const legacyLine = () => ({ legacy_product_id: legacy.id, format: 'A5', color: '4/4', quantity: 100, pages: 8 });
  const getCart = (id: string, key = shop.publishable) => call('GET', `/v1/carts/${id}`, { key });
  const guest = (version: string, extra: Record<string, unknown> = {}) => ({
    version,
    email: uniqueEmail('guest'),
    name: 'Gustav Gast',
    shipping_address: { name: 'Gustav Gast', line1: 'Hafenstraße 9', postal_code: '20457', city: 'Hamburg', country: 'DE' },
    ...extra,
  });

  beforeAll(async () => {
    [shop, other] = await Promise.all([newShop('Cart Shop'), newShop('Other Cart Shop')]);
    cards = await product(businessCards());
    const created = await call('POST', '/v1/legacy-products', { key: shop.secret, body: brochure(smallTable) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    legacy = created.body.data;
  });

  it("prices a session cart's lines with the calculators: a product with options and a legacy product", async () => {
    const cart = await newCart([cardsLine(), legacyLine()]);
    CartSchema.strict().parse(cart);
    expect(cart.id).toMatch(/^cart_[0-9A-Za-z]{24}$/);
    const [productPrice, legacyPrice] = await Promise.all([
      call('POST', `/v1/products/${cards.id}/calculate`, { key: shop.publishable, body: { quantity: 500, options: { paper: 'matt300' } } }),
      call('POST', `/v1/legacy-products/${legacy.id}/calculate`, {
        key: shop.publishable,
        body: { format: 'A5', color: '4/4', quantity: 100, pages: 8 },
      }),
    ]);
    expect(productPrice.status).toBe(200);
    expect(legacyPrice.status).toBe(200);
    expect(cart.items).toMatchObject([
      {
        id: 1,
        kind: 'product',
        name: 'Business cards',
        options: { paper: 'matt300', finish: 'none' },
        unit_price: productPrice.body.data.unit_price,
        setup_fee: productPrice.body.data.setup_fee,
        total: productPrice.body.data.subtotal,
        price_changed: false,
        unavailable: false,
      },
      { id: 2, kind: 'legacy', name: 'Brochure', format: 'A5', quantity: 100, unit_price: legacyPrice.body.data.price, total: 49.9 },
    ]);
    // 500 × 0.09 + 9.90 = 54.90; the brochure cell 49.90; 19 % tax on 104.80.
    expect(cart).toMatchObject({ subtotal: 104.8, tax: 19.91, total: 124.71, currency: 'EUR', item_count: 2, status: 'open' });
    const read = await getCart(cart.id);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(cart);
  });

  it('answers 422 for lines the calculators refuse, with their field names, and changes lines by id', async () => {
    const cart = await newCart();
    const add = (body: unknown) => call('POST', `/v1/carts/${cart.id}/items`, { key: shop.publishable, body });
    const badOption = await add(cardsLine(500, 'gold'));
    expect(badOption.status).toBe(422);
    expect(badOption.body.error.details).toEqual([{ field: 'options.paper', message: expect.stringContaining('Unknown value "gold"') }]);
    const badFormat = await add({ ...legacyLine(), format: 'A3' });
    expect(badFormat.status).toBe(422);
    expect(badFormat.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual(['format']);
    const sparse = await add({ ...legacyLine(), quantity: 250, pages: 8, format: 'A4' });
    expect(sparse.status).toBe(422);
    expect(sparse.body.error.details![0]!.field).toBe('quantity');
    const both = await add({ ...cardsLine(), legacy_product_id: legacy.id });
    expect(both.status).toBe(422);

    const added = await add({ ...cardsLine(100), note: 'Logo on the back' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const changed = await call('PUT', `/v1/carts/${cart.id}/items/1`, { key: shop.publishable, body: { quantity: 1000 } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.items[0]).toMatchObject({ quantity: 1000, unit_price: 0.06, total: 69.9, note: 'Logo on the back' });
    expect(changed.body.data.version).not.toBe(added.body.data.version);
    const removed = await call('DELETE', `/v1/carts/${cart.id}/items/1`, { key: shop.publishable });
    expect(removed.status).toBe(200);
    expect(removed.body.data.items).toEqual([]);
    expect((await call('DELETE', `/v1/carts/${cart.id}/items/1`, { key: shop.publishable })).status).toBe(404);
    expect((await call('DELETE', `/v1/carts/${cart.id}`, { key: shop.publishable })).body.data).toEqual({ id: cart.id, deleted: true });
    expect((await getCart(cart.id)).status).toBe(404);
  });

  it('answers 404 for a cart of another tenant or mode, and for a guessed or malformed id', async () => {
    const cart = await newCart([cardsLine()]);
    for (const key of [other.publishable, other.secret]) {
      const response = await getCart(cart.id, key);
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain('Business cards');
    }
    const guessed = `cart_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;
    expect((await getCart(guessed)).status).toBe(404);
    expect((await getCart('cart_123')).status).toBe(404);
    expect((await call('POST', `/v1/carts/${cart.id}/items`, { key: other.publishable, body: cardsLine() })).status).toBe(404);
    // A secret key with carts:write works on the same cart.
    expect((await getCart(cart.id, shop.secret)).status).toBe(200);
  });

  it("merges a session cart into the customer's cart on login: the same product and options add up, the rest is appended", async () => {
    const customer = await signIn();
    const own = await call('POST', '/v1/cart/items', { key: customer.token, body: cardsLine(500) });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.data).toMatchObject({ customer_id: customer.id, item_count: 1 });
    const session = await newCart([cardsLine(500), legacyLine(), cardsLine(100, 'linen')]);

    const merged = await call('POST', '/v1/cart/merge', { key: customer.token, body: { cart_id: session.id } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    CartSchema.strict().parse(merged.body.data);
    expect(merged.body.data.items).toMatchObject([
      { id: 1, product_id: cards.id, quantity: 1000, unit_price: 0.06, total: 69.9 },
      { id: 2, kind: 'legacy', legacy_product_id: legacy.id, total: 49.9 },
      { id: 3, product_id: cards.id, quantity: 100, options: { paper: 'linen', finish: 'none' } },
    ]);
    expect((await getCart(session.id)).status).toBe(404);
    const read = await call('GET', '/v1/cart', { key: customer.token });
    expect(read.body.data).toEqual(merged.body.data);

    const again = await call('POST', '/v1/cart/merge', { key: customer.token, body: { cart_id: session.id } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('merged');
    const foreign = await newCart([], other.publishable);
    const notOurs = await call('POST', '/v1/cart/merge', { key: customer.token, body: { cart_id: foreign.id } });
    expect(notOurs.status).toBe(404);
    expect((await getCart(foreign.id, other.publishable)).status).toBe(200);
    expect((await call('GET', '/v1/cart', { key: customer.token })).body.data.version).toBe(merged.body.data.version);
  });

  it('checks a session cart out into one order with the stock reserved; the cart is closed; ten concurrent checkouts make one order', async () => {
    const stocked = await product(posterA2({ name: 'Stocked poster', base_price: 2.5, stock: { tracked: true, quantity: 1000 } }));
    const cart = await newCart([{ product_id: stocked.id, quantity: 40 }]);
    const body = guest(cart.version, { notes: 'Ring twice' });
    const customersBefore = (await call('GET', '/v1/customers', { key: shop.secret })).body.pagination.total;
    const attempts = await Promise.all(
      Array.from({ length: 10 }, () => call('POST', `/v1/carts/${cart.id}/checkout`, { key: shop.publishable, body })),
    );
    for (const attempt of attempts) expect([200, 201], JSON.stringify(attempt.body)).toContain(attempt.status);
    expect(attempts.filter((attempt) => attempt.status === 201)).toHaveLength(1);
    const ids = new Set(attempts.map((attempt) => attempt.body.data.id));
    expect(ids.size).toBe(1);
    const order = attempts[0]!.body.data;
    OrderSchema.strict().parse(order);
    // 40 × 2.50 = 100.00, 19 % tax.
    expect(order).toMatchObject({
      status: 'pending',
      subtotal: 100,
      tax: 19,
      total: 119,
      notes: 'Ring twice',
      customer: { email: body.email },
    });
    expect(order.items).toMatchObject([{ product_id: stocked.id, quantity: 40, unit_price: 2.5 }]);
    expect(order.shipping_address).toMatchObject({ city: 'Hamburg' });
    expect((await call('GET', `/v1/products/${stocked.id}`, { key: shop.secret })).body.data.stock.quantity).toBe(960);
    const orders = await call('GET', `/v1/customers/${order.customer.id}/orders`, { key: shop.secret });
    expect(orders.body.pagination.total).toBe(1);
    // One guest customer for the one order: the nine that lost wrote none.
    expect((await call('GET', '/v1/customers', { key: shop.secret })).body.pagination.total).toBe(customersBefore! + 1);

    const closed = (await getCart(cart.id)).body.data;
    expect(closed).toMatchObject({ status: 'checked_out', items: [], order_id: order.id });
    const later = await call('POST', `/v1/carts/${cart.id}/items`, {
      key: shop.publishable,
      body: { product_id: stocked.id, quantity: 1 },
    });
    expect(later.status).toBe(409);
    // The same cart checked out again (any version) answers the same order.
    const repeat = await call('POST', `/v1/carts/${cart.id}/checkout`, { key: shop.publishable, body: guest(closed.version) });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data.id).toBe(order.id);
  });

  it('with a secret key checks out for a named customer; refuses guest fields; checks out a legacy line as its run', async () => {
    const customer = (await call('POST', '/v1/customers', { key: shop.secret, body: { name: 'Sam', email: uniqueEmail('sam') } })).body
      .data;
    const cart = await newCart([cardsLine(250)], shop.secret);
    const refused = await call('POST', `/v1/carts/${cart.id}/checkout`, {
      key: shop.secret,
      body: { version: cart.version, email: 'x@example.com' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details!.map((detail: { field: string }) => detail.field).sort()).toEqual(['customer_id', 'email']);
    const done = await call('POST', `/v1/carts/${cart.id}/checkout`, {
      key: shop.secret,
      body: { version: cart.version, customer_id: customer.id, shipping: 4.9 },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.data).toMatchObject({ customer: { id: customer.id }, subtotal: 32.4, shipping: 4.9 });

    const large = await newCart(Array.from({ length: 26 }, () => cardsLine(100)));
    const tooLarge = await call('POST', `/v1/carts/${large.id}/checkout`, { key: shop.publishable, body: guest(large.version) });
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.error.details).toEqual([{ field: 'items', message: expect.stringContaining('at most 25 lines') }]);
    const full = await call('POST', `/v1/carts/${large.id}/items`, { key: shop.publishable, body: cardsLine() });
    expect(full.status).toBe(201);
    expect(
      (await call('POST', '/v1/carts', { key: shop.publishable, body: { items: Array.from({ length: 51 }, () => cardsLine()) } })).status,
    ).toBe(422);

    // A product with options and a legacy product: one order at the cart's totals, the legacy run priced whole.
    const withLegacy = await newCart([cardsLine(), legacyLine()]);
    const ordered = await call('POST', `/v1/carts/${withLegacy.id}/checkout`, {
      key: shop.publishable,
      body: guest(withLegacy.version),
    });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(201);
    expect(ordered.body.data.subtotal).toBe(withLegacy.subtotal);
    expect(ordered.body.data.items[1]).toMatchObject({
      product_id: null,
      legacy: { legacy_product_id: legacy.id, format: 'A5', color: '4/4', pages: 8 },
      quantity: 100,
      price_source: 'table',
      unit_price: 49.9,
      setup_fee: 0,
      total: 49.9,
    });
  });

  it("checks a guest out on an existing customer's email without touching that customer: a guest of its own, nothing of the record shown", async () => {
    const email = uniqueEmail('vera');
    const vera = (
      await call('POST', '/v1/customers', {
        key: shop.secret,
        body: { name: 'Vera Bestand', email, company: 'Vera GmbH', phone: '+49 30 555', vat_id: 'DE136695976', notes: 'VIP, pays late' },
      })
    ).body.data;
    await call('POST', `/v1/customers/${vera.id}/addresses`, {
      key: shop.secret,
      body: {
        type: 'shipping',
        name: 'Vera Bestand',
        line1: 'Geheimweg 1',
        postal_code: '10115',
        city: 'Berlin',
        country: 'DE',
        is_default: true,
      },
    });
    // A file Vera uploaded (her customer id on it, as a customer token's upload has).
    const upload = await uploadForm(shop.secret, { bytes: await pdfOf(), name: 'vera.pdf', type: 'application/pdf' });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: fileKeys.file({ accountId: shop.accountId, mode: 'test' }, upload.body.data.id),
        UpdateExpression: 'SET customer_id = :vera',
        ExpressionAttributeValues: { ':vera': vera.id },
      }),
    );
    const answers: { status: number; body: BodyOf<'POST', '/v1/carts/{id}/checkout'> }[] = [];
    for (const address of [email, email.toUpperCase(), uniqueEmail('new-guest')]) {
      const cart = await newCart([cardsLine(100)]);
      answers.push(
        await call('POST', `/v1/carts/${cart.id}/checkout`, {
          key: shop.publishable,
          body: guest(cart.version, { email: address, name: 'Mallory' }),
        }),
      );
    }
    // The same answer whether the email is known or not: a new guest customer each time, holding only what was sent.
    for (const [index, answer] of answers.entries()) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.data.customer).toEqual({ id: expect.any(Number), name: 'Mallory', email: expect.any(String) });
      expect(answer.body.data.customer.id).not.toBe(vera.id);
      expect(answer.body.data.billing_address).toBeNull();
      expect(JSON.stringify(answer.body)).not.toMatch(/Vera|Geheimweg|VIP|555|DE123456789/);
      const guestRecord = (await call('GET', `/v1/customers/${answer.body.data.customer.id}`, { key: shop.secret })).body.data;
      expect(guestRecord, String(index)).toMatchObject({ guest: true, name: 'Mallory', company: null, notes: null });
    }
    expect(new Set(answers.map((answer) => answer.body.data.customer.id)).size).toBe(3);
    // Vera is as she was: no order, her email still hers (a customer with it is refused), findable by it.
    const after = (await call('GET', `/v1/customers/${vera.id}`, { key: shop.secret })).body.data;
    expect(after).toMatchObject({ name: 'Vera Bestand', guest: false, notes: 'VIP, pays late' });
    expect((await call('GET', `/v1/customers/${vera.id}/orders`, { key: shop.secret })).body.pagination.total).toBe(0);
    expect((await call('POST', '/v1/customers', { key: shop.secret, body: { name: 'Copy', email } })).status).toBe(409);
    expect((await call('GET', `/v1/customers?email=${encodeURIComponent(email)}`, { key: shop.secret })).body.data).toMatchObject([
      { id: vera.id },
    ]);
    // A guest's lines take only files the guest uploaded: none, so Vera's is refused and nothing is written.
    const customersNow = async () => (await call('GET', '/v1/customers', { key: shop.secret })).body.pagination.total;
    const before = await customersNow();
    const withFile = await newCart([{ ...cardsLine(100), file_ids: [upload.body.data.id] }]);
    const refused = await call('POST', `/v1/carts/${withFile.id}/checkout`, {
      key: shop.publishable,
      body: guest(withFile.version, { email }),
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'items.0.file_ids.0' })]);
    expect((await getCart(withFile.id)).body.data.status).toBe('open');
    // The guest's customer is written with the order only: a refused checkout leaves none behind.
    expect(await customersNow()).toBe(before);
    // Deleting a guest leaves Vera's email hers.
    expect((await call('DELETE', `/v1/customers/${answers[0]!.body.data.customer.id}`, { key: shop.secret })).status).not.toBe(500);
    expect((await call('POST', '/v1/customers', { key: shop.secret, body: { name: 'Copy', email } })).status).toBe(409);
  });

  it('checks a session cart out for a named customer only with orders:write: a carts-only key is 403 and learns nothing of the customer', async () => {
    const customer = (await call('POST', '/v1/customers', { key: shop.secret, body: { name: 'Ona', email: uniqueEmail('ona') } })).body
      .data;
    await call('POST', `/v1/customers/${customer.id}/addresses`, {
      key: shop.secret,
      body: { type: 'shipping', name: 'Ona', line1: 'Privatweg 2', postal_code: '10115', city: 'Berlin', country: 'DE', is_default: true },
    });
    const cartsOnly = await scopedKey(['carts:write']);
    const cart = await newCart([cardsLine(100)], cartsOnly);
    const refused = await call('POST', `/v1/carts/${cart.id}/checkout`, {
      key: cartsOnly,
      body: { version: cart.version, customer_id: customer.id },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: [{ field: 'scope', message: 'requires orders:write' }],
    });
    expect(JSON.stringify(refused.body)).not.toContain('Privatweg');
    expect((await getCart(cart.id, cartsOnly)).body.data.status).toBe('open');
    const ordersToo = await scopedKey(['carts:write', 'orders:write']);
    const done = await call('POST', `/v1/carts/${cart.id}/checkout`, {
      key: ordersToo,
      body: { version: cart.version, customer_id: customer.id },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.data.shipping_address).toMatchObject({ line1: 'Privatweg 2' });
  });

  it("never orders past the order's own bounds: lines' notes beyond an order's notes are a 422 naming notes, and nothing is written", async () => {
    const lines = Array.from({ length: 11 }, (_, index) => ({ ...cardsLine(100 + index), note: 'n'.repeat(500) }));
    const cart = await newCart(lines);
    const refused = await call('POST', `/v1/carts/${cart.id}/checkout`, { key: shop.publishable, body: guest(cart.version) });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.details).toEqual([{ field: 'notes', message: expect.stringContaining('at most 5000') }]);
    expect((await getCart(cart.id)).body.data).toMatchObject({ status: 'open', order_id: null });
    // Shorter notes fit: one order, its notes gathered from the lines.
    const fits = await newCart(lines.slice(0, 9));
    const ordered = await call('POST', `/v1/carts/${fits.id}/checkout`, { key: shop.publishable, body: guest(fits.version) });
    expect(ordered.status, JSON.stringify(ordered.body).slice(0, 300)).toBe(201);
    expect(ordered.body.data.notes).toMatch(/^Line 1: n{500}\nLine 2: /);
    expect(ordered.body.data.notes!.length).toBeLessThanOrEqual(5000);
  });

  it('marks a deactivated product unavailable, and checkout then writes nothing and lists the line', async () => {
    const doomed = await product(posterA2({ name: 'Doomed poster' }));
    const cart = await newCart([cardsLine(), { product_id: doomed.id, quantity: 10 }]);
    expect((await call('PUT', `/v1/products/${doomed.id}`, { key: shop.secret, body: { is_active: false } })).status).toBe(200);
    const read = (await getCart(cart.id)).body.data;
    expect(read.items[1]).toMatchObject({ unavailable: true, total: 0, unavailable_reason: expect.stringContaining('archived') });
    expect(read.subtotal).toBe(54.9);
    const before = (await call('GET', '/v1/orders', { key: shop.secret })).body.pagination.total;
    const refused = await call('POST', `/v1/carts/${cart.id}/checkout`, { key: shop.publishable, body: guest(read.version) });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([{ field: 'items.1', message: expect.stringContaining('archived') }]);
    expect((await call('GET', '/v1/orders', { key: shop.secret })).body.pagination.total).toBe(before);
    expect((await getCart(cart.id)).body.data).toMatchObject({ status: 'open', item_count: 2 });
  });

  it('shows a changed price with the previous one; checkout with the old version is 409 with the changed lines, with the new one it orders', async () => {
    const repriced = await product(posterA2({ name: 'Repriced poster' }));
    const cart = await newCart([{ product_id: repriced.id, quantity: 10 }, cardsLine()]);
    expect((await call('PUT', `/v1/products/${repriced.id}`, { key: shop.secret, body: { base_price: 1.5 } })).status).toBe(200);
    const read = (await getCart(cart.id)).body.data;
    expect(read.items[0]).toMatchObject({ unit_price: 1.5, previous_unit_price: 1, price_changed: true, total: 15 });
    expect(read.items[1]).toMatchObject({ price_changed: false, previous_unit_price: null });
    expect(read.version).not.toBe(cart.version);
    expect(read.version.split('.')[0]).toBe(cart.version.split('.')[0]); // a read writes nothing

    const stale = await call('POST', `/v1/carts/${cart.id}/checkout`, { key: shop.publishable, body: guest(cart.version) });
    expect(stale.status).toBe(409);
    expect(stale.body.error.details).toEqual([{ field: 'items.0', message: expect.stringContaining('1 → 1.5') }]);
    const fresh = await call('POST', `/v1/carts/${cart.id}/checkout`, { key: shop.publishable, body: guest(read.version) });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
    expect(fresh.body.data.subtotal).toBe(15 + 54.9);
  });

  it("checks the customer's cart out for the customer; a repeat with the same version answers the same order", async () => {
    const customer = await signIn();
    const empty = await call('GET', '/v1/cart', { key: customer.token });
    expect(empty.body.data).toMatchObject({ id: `cart_customer_${customer.id}`, items: [], created_at: null });
    const extra = await call('POST', '/v1/cart/items', { key: customer.token, body: legacyLine() });
    expect(extra.status).toBe(201);
    const changed = await call('PUT', '/v1/cart/items/1', { key: customer.token, body: { quantity: 250 } });
    expect(changed.body.data.items[0]).toMatchObject({ quantity: 250, total: 89 });
    expect((await call('DELETE', '/v1/cart/items/1', { key: customer.token })).body.data.items).toEqual([]);
    const added = (await call('POST', '/v1/cart/items', { key: customer.token, body: cardsLine(250) })).body.data;
    expect(added.items[0]!.id).toBe(2);
    const first = await call('POST', '/v1/cart/checkout', { key: customer.token, body: { version: added.version } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ customer: { id: customer.id }, subtotal: 32.4 });
    const repeat = await call('POST', '/v1/cart/checkout', { key: customer.token, body: { version: added.version } });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data.id).toBe(first.body.data.id);
    const after = (await call('GET', '/v1/cart', { key: customer.token })).body.data;
    expect(after).toMatchObject({ status: 'open', items: [], order_id: first.body.data.id });
    const emptyCheckout = await call('POST', '/v1/cart/checkout', { key: customer.token, body: { version: after.version } });
    expect(emptyCheckout.status).toBe(422);
    // Customer carts are the customer's: no key reaches /v1/cart, and the token reaches no session cart.
    expect((await call('GET', '/v1/cart', { key: shop.secret })).status).toBe(403);
    const session = await newCart([cardsLine()]);
    expect((await getCart(session.id, customer.token)).status).toBe(403);
  });
});

import { beforeAll, describe, expect, inject, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/clients/dynamodb';
import { dueSortKey, quoteKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { QuoteSchema } from '#shared/quotes/schema';
import { OrderSchema } from '#shared/orders/schema';
import { tool, writeScratch } from '#test/support/document-tools';
import { call, type Query } from '#test/support/http';
import { walkByCursor } from '#test/support/cursor-walk';
import { enableInvoicing } from '#test/support/invoices';
import { newCustomer, newOrder, newProduct, stockOf } from '#test/support/orders';
import { eventsOf, freshShop, type Shop } from '#test/support/shop';
import type { DataOf } from '#test/support/api-types';

/** Quotes over HTTP: priced like orders, numbered without gaps, accepted into exactly one order. */
describe('quotes', () => {
  let own: Shop;
  let customer: { id: number; name: string; email: string };
  let product: { id: number };
  beforeAll(async () => {
    own = await freshShop('Quote Shop');
    customer = await newCustomer(own.secretTest, { name: 'Zofia Łódź-Müller' });
    product = await newProduct(own.secretTest, { name: 'Poster A2', setup_fee: 15 });
  });

  const key = () => own.secretTest;
  const lines = () => [
    { product_id: product.id, quantity: 100 },
    { product_id: product.id, quantity: 1, unit_price: 45.5, description: 'Design work' },
  ];

  async function newQuote(extra: Record<string, unknown> = {}) {
    const response = await call('POST', '/v1/quotes', {
      key: key(),
      body: { customer_id: customer.id, items: lines(), shipping: 4.9, ...extra },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data;
  }

  const numberOf = (quote: { quote_number: string }) => Number(quote.quote_number.split('-')[2]);

  it('prices a product line and a manual line exactly like an order, and accepts into an order with those lines and totals', async () => {
    const order = await newOrder(key(), { customer_id: customer.id, items: lines(), shipping: 4.9 });
    let quote!: DataOf<'POST', '/v1/quotes'>;
    const created = await eventsOf(own.tenant, async () => {
      quote = await newQuote({ notes: 'Valid for the spring campaign' });
    });
    expect(created.map((event) => event.kind)).toEqual(['quote.created']);
    QuoteSchema.strict().parse(quote);
    expect(quote).toMatchObject({
      status: 'open',
      customer: { id: customer.id, name: customer.name, email: customer.email },
      subtotal: order.subtotal,
      tax: order.tax,
      shipping: order.shipping,
      total: order.total,
      currency: order.currency,
      order_id: null,
      version: 1,
    });
    expect(quote.items).toEqual(order.items);
    expect(quote.quote_number).toMatch(/^QUO-\d{4}-\d{6}$/);
    expect(quote.valid_until).toBe(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));

    const stockBefore = await stockOf(key(), product.id);
    let accepted!: DataOf<'POST', '/v1/quotes/{id}/accept'>;
    const events = await eventsOf(own.tenant, async () => {
      const response = await call('POST', `/v1/quotes/${quote.id}/accept`, { key: key() });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      accepted = response.body.data;
    });
    expect(events.map((event) => event.kind).sort()).toEqual(['order.created', 'quote.accepted']);
    OrderSchema.strict().parse(accepted.order);
    expect(accepted.order).toMatchObject({
      status: 'pending',
      quote_id: quote.id,
      items: quote.items,
      subtotal: quote.subtotal,
      tax: quote.tax,
      shipping: quote.shipping,
      total: quote.total,
      notes: 'Valid for the spring campaign',
    });
    expect(accepted.quote).toMatchObject({ status: 'accepted', order_id: accepted.order.id, version: 2 });
    expect((await call('GET', `/v1/orders/${accepted.order.id}`, { key: key() })).body.data.quote_id).toBe(quote.id);
    expect(await stockOf(key(), product.id)).toBe(stockBefore); // untracked stock: nothing reserved, but planned the same way

    const again = await call('POST', `/v1/quotes/${quote.id}/accept`, { key: key() });
    expect(again.status).toBe(409);
    expect((await call('PUT', `/v1/quotes/${quote.id}`, { key: key(), body: { notes: 'late' } })).status).toBe(409);
  });

  it('creates one order from ten concurrent accepts; the others answer 409', async () => {
    const quote = await newQuote();
    const ordersBefore = (await call('GET', `/v1/customers/${customer.id}/orders`, { key: key() })).body.pagination.total;
    const responses = await Promise.all(Array.from({ length: 10 }, () => call('POST', `/v1/quotes/${quote.id}/accept`, { key: key() })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    const ordersAfter = (await call('GET', `/v1/customers/${customer.id}/orders`, { key: key() })).body.pagination.total;
    expect(ordersAfter).toBe(ordersBefore! + 1);
  });

  it('shows an open quote past valid_until as expired and refuses to accept it, until its validity is extended', async () => {
    const quote = await newQuote();
    // Its validity ended yesterday: written straight into the store (the API refuses a past date).
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: quoteKeys.quote(own.tenant, quote.id),
        UpdateExpression: 'SET valid_until = :day, gsi2sk = :sort',
        ExpressionAttributeValues: { ':day': yesterday, ':sort': `${yesterday}#${quote.created_at}#${String(quote.id).padStart(12, '0')}` },
      }),
    );
    const shown = (await call('GET', `/v1/quotes/${quote.id}`, { key: key() })).body.data;
    expect(shown.status).toBe('expired');
    const refused = await call('POST', `/v1/quotes/${quote.id}/accept`, { key: key() });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('expired');
    const expiredIds = (await call('GET', '/v1/quotes?status=expired', { key: key() })).body.data.map((q: { id: number }) => q.id);
    expect(expiredIds).toContain(quote.id);
    expect((await call('GET', '/v1/quotes?status=open', { key: key() })).body.data.map((q: { id: number }) => q.id)).not.toContain(
      quote.id,
    );

    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const extended = await call('PUT', `/v1/quotes/${quote.id}`, {
      key: key(),
      body: { valid_until: inAWeek },
      headers: { 'If-Match': 'W/"1"' },
    });
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect(extended.body.data).toMatchObject({ status: 'open', valid_until: inAWeek, version: 2 });
    expect(extended.headers.get('etag')).toBe('W/"2"');
    expect(
      (await call('PUT', `/v1/quotes/${quote.id}`, { key: key(), body: { notes: 'stale' }, headers: { 'If-Match': '1' } })).status,
    ).toBe(412);
    expect((await call('POST', `/v1/quotes/${quote.id}/accept`, { key: key() })).status).toBe(201);
  });

  it('keeps a rejected quote with its reason; it can be neither changed nor accepted', async () => {
    const quote = await newQuote();
    const events = await eventsOf(own.tenant, async () => {
      const rejected = await call('POST', `/v1/quotes/${quote.id}/reject`, { key: key(), body: { reason: 'Zu teuer' } });
      expect(rejected.status).toBe(200);
      expect(rejected.body.data).toMatchObject({ status: 'rejected', rejection_reason: 'Zu teuer' });
    });
    expect(events.map((event) => event.kind)).toEqual(['quote.rejected']);
    expect((await call('PUT', `/v1/quotes/${quote.id}`, { key: key(), body: { notes: 'x' } })).status).toBe(409);
    expect((await call('POST', `/v1/quotes/${quote.id}/accept`, { key: key() })).status).toBe(409);
    expect((await call('POST', `/v1/quotes/${quote.id}/reject`, { key: key() })).status).toBe(409);
    expect((await call('GET', `/v1/quotes/${quote.id}`, { key: key() })).body.data.rejection_reason).toBe('Zu teuer');
  });

  it('prices changed lines again while open, and refuses bad input with field details', async () => {
    const quote = await newQuote();
    const changed = await call('PUT', `/v1/quotes/${quote.id}`, {
      key: key(),
      body: { items: [{ product_id: product.id, quantity: 200 }], shipping: 0 },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.items).toHaveLength(1);
    expect(changed.body.data.subtotal).toBe(215); // 200 × 1.00 + 15.00 setup
    const bad = await call('POST', '/v1/quotes', {
      key: key(),
      body: { customer_id: 999_999, items: [{ product_id: 999_998, quantity: 0 }], valid_until: '2020-01-01' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details!.map((detail: { field: string }) => detail.field)).toContain('items.0.quantity');
    const unknown = await call('POST', '/v1/quotes', {
      key: key(),
      body: { customer_id: 999_999, items: [{ product_id: product.id, quantity: 1 }] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details!.map((detail: { field: string }) => detail.field)).toContain('customer_id');
  });

  it('refuses to accept when stock is short, naming the line, and writes nothing', async () => {
    const tracked = await newProduct(key(), { name: 'Tracked', stock: { tracked: true, quantity: 5, low_threshold: 0 } });
    const quote = await newQuote({ items: [{ product_id: tracked.id, quantity: 10 }] });
    const refused = await call('POST', `/v1/quotes/${quote.id}/accept`, { key: key() });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'items.0.quantity' })]);
    expect(await stockOf(key(), tracked.id)).toBe(5);
    expect((await call('GET', `/v1/quotes/${quote.id}`, { key: key() })).body.data).toMatchObject({ status: 'open', order_id: null });
  });

  it('numbers quotes per tenant and mode without gaps, and lists them by status and customer', async () => {
    const shop = await freshShop('Quote Numbers');
    const buyer = await newCustomer(shop.secretTest);
    const item = await newProduct(shop.secretTest);
    const make = (secret: string, customerId: number, productId: number) =>
      call('POST', '/v1/quotes', { key: secret, body: { customer_id: customerId, items: [{ product_id: productId, quantity: 1 }] } });
    const made = await Promise.all(Array.from({ length: 8 }, () => make(shop.secretTest, buyer.id, item.id)));
    expect(made.map((response) => response.status)).toEqual(Array(8).fill(201));
    expect(made.map((response) => numberOf(response.body.data)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const liveBuyer = await newCustomer(shop.secretLive);
    const liveItem = await newProduct(shop.secretLive);
    expect(numberOf((await make(shop.secretLive, liveBuyer.id, liveItem.id)).body.data)).toBe(1);

    const [first, second] = made.map((response) => response.body.data);
    await call('POST', `/v1/quotes/${first!.id}/reject`, { key: shop.secretTest });
    const ids = async (query: `/v1/quotes${Query}` | `/v1/customers/${number}/quotes${Query}`) => {
      const response = await call('GET', query, { key: shop.secretTest });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return { ids: response.body.data.map((quote: { id: number }) => quote.id), total: response.body.pagination.total };
    };
    expect((await ids('/v1/quotes')).total).toBe(8);
    expect((await ids('/v1/quotes?status=rejected')).ids).toEqual([first!.id]);
    expect((await ids('/v1/quotes?status=open')).total).toBe(7);
    expect((await ids(`/v1/customers/${buyer.id}/quotes?status=open`)).ids).toContain(second!.id);
    expect((await ids(`/v1/quotes?customer_id=${buyer.id}&created_from=2020-01-01`)).total).toBe(8);
    expect((await call('GET', '/v1/quotes?status=open&created_from=2020-01-01', { key: shop.secretTest })).status).toBe(422);
    expect((await call('GET', '/v1/customers/999999/quotes', { key: shop.secretTest })).status).toBe(404);
  });

  it("pages every quote list by cursor: newest first, open and expired by validity, a customer's; a quote that left the list keeps its place", async () => {
    const shop = await freshShop('Quote Cursors');
    const [a, b] = [await newCustomer(shop.secretTest), await newCustomer(shop.secretTest)];
    const item = await newProduct(shop.secretTest);
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const made: { id: number; customer: number; valid_until: string; created_at: string }[] = [];
    // Validity in another order than creation; every third for the second customer.
    for (let index = 0; index < 10; index++) {
      const buyer = index % 3 === 2 ? b : a;
      const response = await call('POST', '/v1/quotes', {
        key: shop.secretTest,
        body: { customer_id: buyer.id, valid_until: day(1 + ((index * 7) % 10)), items: [{ product_id: item.id, quantity: 1 }] },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      const { id, valid_until, created_at } = response.body.data;
      made.push({ id, customer: buyer.id, valid_until, created_at });
    }
    // Two expired ones: their validity ended (written straight into the store, item and customer entry: the API refuses a past date).
    for (const [quote, days] of [
      [made[1]!, -3],
      [made[6]!, -1],
    ] as const) {
      quote.valid_until = day(days);
      const sort = dueSortKey(quote.valid_until, quote.created_at, quote.id);
      for (const key of [quoteKeys.quote(shop.tenant, quote.id), quoteKeys.customerEntry(shop.tenant, quote.id)]) {
        await dynamo().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET gsi2sk = :sort',
            ExpressionAttributeValues: { ':sort': sort },
          }),
        );
      }
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: quoteKeys.quote(shop.tenant, quote.id),
          UpdateExpression: 'SET valid_until = :day',
          ExpressionAttributeValues: { ':day': quote.valid_until },
        }),
      );
    }
    const today = day(0);
    const newestFirst = (quotes: typeof made) => quotes.toSorted((x, y) => y.id - x.id).map(({ id }) => id);
    const byValidity = (quotes: typeof made) =>
      quotes.toSorted((x, y) => x.valid_until.localeCompare(y.valid_until) || x.id - y.id).map(({ id }) => id);
    const open = made.filter((quote) => quote.valid_until >= today);
    const expired = made.filter((quote) => quote.valid_until < today);

    // The cursor quote (with the customer: one BatchGetItem), the page's keys and one more, its items, the total.
    const walk = (path: string, { counted = 0, customer = false } = {}) =>
      walkByCursor(`${path}${path.includes('?') ? '&' : '?'}per_page=3`, shop.secretTest, {
        calls: 4,
        items: 1 + 4 + 3 + Math.max(1, counted) + (customer ? 1 : 0),
      });
    expect(await walk('/v1/quotes')).toEqual(newestFirst(made));
    expect(await walk('/v1/quotes?status=open', { counted: made.length })).toEqual(byValidity(open));
    expect(await walk('/v1/quotes?status=expired', { counted: made.length })).toEqual(byValidity(expired));
    const ofA = made.filter((quote) => quote.customer === a.id);
    expect(await walk(`/v1/quotes?customer_id=${a.id}`, { counted: ofA.length })).toEqual(newestFirst(ofA));
    expect(await walk(`/v1/customers/${a.id}/quotes?status=open`, { counted: ofA.length, customer: true })).toEqual(
      byValidity(ofA.filter((quote) => quote.valid_until >= today)),
    );
    expect(await walk(`/v1/customers/${b.id}/quotes?created_from=2020-01-01`, { counted: made.length, customer: true })).toEqual(
      newestFirst(made.filter((quote) => quote.customer === b.id)),
    );

    // An open quote ends a page of the open ones and is rejected: the next page goes on after its validity.
    const page = await call('GET', '/v1/quotes?status=open&per_page=3', { key: shop.secretTest });
    const last = page.body.data[2]!.id;
    expect((await call('POST', `/v1/quotes/${last}/reject`, { key: shop.secretTest })).status).toBe(200);
    const next = await call('GET', `/v1/quotes?status=open&per_page=3&starting_after=${last}`, { key: shop.secretTest });
    expect(next.body.data.map((quote: { id: number }) => quote.id)).toEqual(byValidity(open).slice(3, 6));
    // A cursor's place in the list read: an expired one sorts before every open quote, an open one after every expired quote.
    const fromExpired = await call('GET', `/v1/quotes?status=open&per_page=2&starting_after=${expired[0]!.id}`, { key: shop.secretTest });
    expect(fromExpired.body.data.map((quote: { id: number }) => quote.id)).toEqual(byValidity(open).slice(0, 2));
    const fromOpen = await call('GET', `/v1/quotes?status=expired&starting_after=${open[0]!.id}`, { key: shop.secretTest });
    expect(fromOpen.body).toMatchObject({ data: [], pagination: { total: 2, has_more: false, next_cursor: null } });

    for (const [path, field, requestKey] of [
      [`/v1/quotes?starting_after=${made.at(-1)!.id + 1}`, 'starting_after', shop.secretTest],
      [`/v1/quotes?starting_after=${made[0]!.id}`, 'starting_after', shop.secretLive],
      [`/v1/customers/${a.id}/quotes?starting_after=${made.at(-1)!.id + 1}`, 'starting_after', shop.secretTest],
      [`/v1/quotes?starting_after=${made[0]!.id}&page=2`, 'page', shop.secretTest],
    ] as const) {
      const response = await call('GET', path, { key: requestKey });
      expect(response.status, path).toBe(422);
      expect(response.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual([field]);
    }
    const unknown = await call('GET', `/v1/quotes?starting_after=${made.at(-1)!.id + 1}`, { key: shop.secretTest });
    expect(unknown.body.error.details![0]!.message).toBe(`No quote with id ${made.at(-1)!.id + 1}`);
    expect((await call('GET', `/v1/customers/999999/quotes?starting_after=${made[0]!.id}`, { key: shop.secretTest })).status).toBe(404);
  });

  it('renders the quote PDF with its title, number and validity, once per version', async () => {
    await enableInvoicing(own.accountId);
    const quote = await newQuote();
    const fetchPdf = () =>
      fetch(`${inject('fixtures').api}/v1/quotes/${quote.id}/pdf`, {
        headers: { Authorization: `Bearer ${key()}`, Accept: 'application/pdf' },
      });
    const first = await fetchPdf();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-disposition')).toBe(`inline; filename="${quote.quote_number}.pdf"`);
    expect(first.headers.get('x-document-cached')).toBe('false');
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = tool('pdftotext', ['-raw', writeScratch(`quote-${quote.id}.pdf`, bytes), '-']).stdout;
    for (const expected of ['Angebot / Quote', quote.quote_number, quote.valid_until, 'Zofia Łódź-Müller', 'TEST'])
      expect(text).toContain(expected);
    expect((await fetchPdf()).headers.get('x-document-cached')).toBe('true');
    const stored = await dynamo().send(new GetCommand({ TableName: tableName(), Key: quoteKeys.quote(own.tenant, quote.id) }));
    expect(stored.Item?.status).toBe('open');
  });
});

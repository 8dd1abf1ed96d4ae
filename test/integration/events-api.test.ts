/**
 * `GET /v1/events` and `GET /v1/events/{id}`: the tenant's stored outbox events, newest first,
 * filtered by kind and time, paged by cursor — never another account's or the other mode's, never
 * a test sample — and every page read with a page's worth of DynamoDB work.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, dynamoDbWork, uniqueEmail, type Query } from '#test/support/http';
import { useReceiver } from '#test/support/receiver';
import { eventually } from '#test/support/wait';
import { freshShop, registerForTest, type Shop } from '#test/support/webhooks';

let shop: Shop;
let other: Shop;
const customers: { id: number; name: string; created_at: string }[] = [];
let updated: { id: number; name: string };
let beforeAll_: string;

/** The customer a customer.* event carries (the events list types `data` as any object). */
const customerOf = (event: { data: unknown }) => (event.data as { customer: { name: string } }).customer;

async function events(query: Query = '', key = shop.secretTest) {
  const response = await call('GET', `/v1/events${query}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ...response.body, work: dynamoDbWork(response) };
}

beforeAll(async () => {
  [shop, other] = await Promise.all([freshShop('Events API'), freshShop('Events API Other')]);
  beforeAll_ = new Date().toISOString();
  for (const name of ['Ada', 'Bea', 'Cleo', 'Dora', 'Emil']) {
    const response = await call('POST', '/v1/customers', { key: shop.secretTest, body: { name, email: uniqueEmail('events') } });
    customers.push(response.body.data);
  }
  const changed = await call('PUT', `/v1/customers/${customers[0]!.id}`, { key: shop.secretTest, body: { name: 'Ada Lovelace' } });
  updated = changed.body.data;
  // The same kinds in the other mode and in another account.
  await call('POST', '/v1/customers', { key: shop.secretLive, body: { name: 'Live Larry', email: uniqueEmail('events') } });
  await call('POST', '/v1/customers', { key: other.secretTest, body: { name: 'Other Otto', email: uniqueEmail('events') } });
  // The index is eventually consistent: wait until all six are listed.
  await eventually(
    async () => (await events()).data.length,
    (count) => count === 6,
  );
});

describe('GET /v1/events', () => {
  it("lists the tenant's events newest first, each as stored: id, type, created_at, mode, data", async () => {
    const { data, pagination } = await events();
    expect(data.map((event) => event.type)).toEqual([
      'customer.updated',
      'customer.created',
      'customer.created',
      'customer.created',
      'customer.created',
      'customer.created',
    ]);
    expect(data.map((event) => customerOf(event).name)).toEqual(['Ada Lovelace', 'Emil', 'Dora', 'Cleo', 'Bea', 'Ada']);
    expect(Object.keys(data[0]!)).toEqual(['id', 'type', 'created_at', 'mode', 'data']);
    expect(data[0]).toMatchObject({ id: expect.stringMatching(/^evt_[0-9A-Za-z]{22}$/), mode: 'test', data: { customer: updated } });
    // The data is the resource exactly as the API answered, field order included.
    expect(JSON.stringify(data[1]!.data)).toBe(JSON.stringify({ customer: customers[4] }));
    expect(pagination).toEqual({ page: 1, per_page: 25, has_more: false, next_cursor: null });
  });

  it("never shows another account's or the other mode's events", async () => {
    const all = JSON.stringify((await events()).data);
    expect(all).not.toContain('Live Larry');
    expect(all).not.toContain('Other Otto');
    const live = await eventually(
      async () => (await events('', shop.secretLive)).data,
      (list) => list.length === 1,
    );
    expect(live.map((event) => [event.mode, customerOf(event).name])).toEqual([['live', 'Live Larry']]);
    const foreign = await eventually(
      async () => (await events('', other.secretTest)).data,
      (list) => list.length === 1,
    );
    expect(foreign.map((event) => customerOf(event).name)).toEqual(['Other Otto']);
  });

  it('filters by type and by creation time', async () => {
    const created = await events('?type=customer.created');
    expect(created.data).toHaveLength(5);
    expect(created.data.every((event) => event.type === 'customer.created')).toBe(true);
    expect((await events('?type=order.created')).data).toEqual([]);

    const all = (await events()).data;
    const middle = all[2]!.created_at;
    const from = (await events(`?created_from=${encodeURIComponent(middle)}`)).data;
    expect(from.map((event) => event.id)).toEqual(all.filter((event) => event.created_at >= middle).map((event) => event.id));
    const to = (await events(`?created_to=${encodeURIComponent(middle)}`)).data;
    expect(to.map((event) => event.id)).toEqual(all.filter((event) => event.created_at <= middle).map((event) => event.id));
    expect((await events(`?created_to=${encodeURIComponent(beforeAll_)}&created_from=2020-01-01`)).data).toEqual([]);
    const both = (await events(`?type=customer.created&created_from=${encodeURIComponent(middle)}`)).data;
    expect(both.every((event) => event.type === 'customer.created' && event.created_at >= middle)).toBe(true);
  });

  it('pages by cursor, each page one Query of per_page + 1 keys and one BatchGetItem of the page', async () => {
    const all = (await events()).data.map((event) => event.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await events(`?per_page=2${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(page.work.commands).toEqual([expect.stringMatching(/^Query\[[0-3]\]$/), expect.stringMatching(/^BatchGetItem\[[0-2]\]$/)]);
      expect(page.work.items).toBeLessThanOrEqual(2 + 1 + 2);
      seen.push(...page.data.map((event) => event.id));
      cursor = page.pagination.next_cursor ?? null;
      expect(page.pagination.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(all);

    const filtered = await events(`?type=customer.created&per_page=2&starting_after=${all[2]}`);
    expect(filtered.data.map((event) => event.id)).toEqual(all.slice(3, 5));
  });

  it('refuses page numbers, unknown kinds, malformed cursors and inverted ranges with 422', async () => {
    for (const query of [
      'page=2',
      'type=order.deleted',
      'starting_after=wh_1',
      'created_from=2026-02-01&created_to=2026-01-01',
      'per_page=101',
    ]) {
      const response = await call('GET', `/v1/events?${query}`, { key: shop.secretTest });
      expect(response.status, query).toBe(422);
    }
  });
});

describe('GET /v1/events/{id}', () => {
  it('answers one event of the tenant, and 404 to another account, the other mode and a malformed id', async () => {
    const [latest] = (await events()).data;
    const response = await call('GET', `/v1/events/${latest!.id}`, { key: shop.secretTest });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(latest);
    for (const key of [other.secretTest, shop.secretLive]) {
      const foreign = await call('GET', `/v1/events/${latest!.id}`, { key });
      expect(foreign.status).toBe(404);
      expect(JSON.stringify(foreign.body)).not.toContain('Ada');
    }
    expect((await call('GET', '/v1/events/evt_nope', { key: shop.secretTest })).status).toBe(404);
    expect((await call('GET', `/v1/events/${latest!.id.slice(0, -1)}X`, { key: shop.secretTest })).status).toBe(404);
  });

  it('keeps test samples out of the list and answers 404 for them', async () => {
    const hook = await useReceiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['invoice.paid'] });
    expect((await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest })).status).toBe(200);
    const [request] = await hook.waitFor(1);
    const sample = JSON.parse(request!.rawBody);
    expect(sample.test).toBe(true);
    expect((await call('GET', `/v1/events/${sample.event_id}`, { key: shop.secretTest })).status).toBe(404);
    expect((await events()).data.map((event) => event.id)).not.toContain(sample.event_id);
  });
});

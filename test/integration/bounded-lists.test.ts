/**
 * Reads bounded by the page, never by the history: a tenant with 200,000 audit records (a few
 * days of a busy shop) pages through `GET /v1/audit-logs` by cursor, and every request reads at
 * most a page's worth of records — counted by the local gateway's DynamoDB counters (the items
 * each read returned or examined, `X-Local-DynamoDB-Commands`). The records are written straight
 * into the table with BatchWriteItem, as the audit shipper writes them. A webhook with more
 * deliveries than the total cap pages its history by number and by cursor with a capped total.
 * A catalogue of 3,000 products is walked by cursor, with each filter: every page reads its own
 * keys, however deep, where a page number reads every key before it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { productRecord } from '#test/support/records';
import { createApiKey } from '#shared/accounts/service';
import type { Tenant } from '#shared/auth/principal';
import { AUDIT_EXAMINE_LIMIT } from '#shared/audit/repository';
import { auditItem, type AuditRecord } from '#shared/audit/stored';
import { batchWriteAll, putRequest } from '#shared/db/batch';
import { TOTAL_CAP } from '#shared/db/collections';
import { tenantKeys } from '#shared/db/keys';
import { idTime, randomToken } from '#shared/ids';
import { countersOf, listEntryPuts, productPut, type ProductRecord } from '#shared/products/stored';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';
import { deliveryPut, pendingDelivery } from '#shared/webhooks/stored';
import { call, dynamoDbWork, type ApiResponse } from '#test/support/http';
import { walkByCursor } from '#test/support/cursor-walk';
import { freshShop, register } from '#test/support/webhooks';

const RECORDS = 200_000;
/** The records span the 5 days before this moment, one every ~2 s, newest at `end`. */
const end = Date.now() - 60_000;
const spacingMs = Math.floor((5 * 24 * 3600 * 1000) / RECORDS);
const timeOf = (index: number) => new Date(end - index * spacingMs).toISOString();

let key: string;
/** The range of the synthetic records only (the test's own calls are audited too, after `end`). */
const range = `from=${encodeURIComponent(timeOf(RECORDS - 1))}&to=${encodeURIComponent(new Date(end).toISOString())}`;

function record(index: number): AuditRecord {
  return {
    request_id: `req-${String(index).padStart(6, '0')}`,
    created_at: timeOf(index),
    key_id: 'key_bulk',
    key_prefix: 'sk_test_bulk',
    customer_id: null,
    actor: null,
    method: index % 10 === 0 ? 'POST' : 'GET',
    path: index % 10 === 0 ? '/v1/orders' : '/v1/customers',
    route: index % 10 === 0 ? 'orders.create' : 'customers.list',
    status: 200,
    source_ip: '203.0.113.7',
    user_agent: 'bulk',
    duration_ms: 12,
    changes: [],
  };
}

async function page(query: string) {
  const response = await call('GET', `/v1/audit-logs?${query}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { body: response.body, work: dynamoDbWork(response) };
}

describe('GET /v1/audit-logs over 200,000 records', () => {
  beforeAll(async () => {
    const { secretTest, tenant } = await freshShop('Busy Shop');
    key = secretTest;
    const items = Array.from({ length: RECORDS }, (_, index) => putRequest(auditItem(tenant, record(index))));
    await batchWriteAll(items, 16);
  }, 600_000);

  it('reads at most a page of records per request, first page and next pages alike', async () => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    let last = '~';
    for (let pageNumber = 0; pageNumber < 5; pageNumber++) {
      const { body, work } = await page(`per_page=100&${range}${cursor ? `&starting_after=${cursor}` : ''}`);
      // 100 records and the one beyond that says more follow; one Query, no count.
      expect(work.commands).toEqual([expect.stringMatching(/^Query\[\d+\]$/)]);
      expect(work.items, work.commands.join(',')).toBeLessThanOrEqual(101);
      expect(body.data).toHaveLength(100);
      expect(body.pagination).toMatchObject({ per_page: 100, has_more: true, next_cursor: expect.any(String) });
      expect(body.pagination.total).toBeUndefined();
      for (const entry of body.data) {
        // Newest first across pages, nothing twice.
        expect(entry.created_at <= last).toBe(true);
        last = entry.created_at;
        expect(seen.has(entry.request_id)).toBe(false);
        seen.add(entry.request_id);
      }
      cursor = body.pagination.next_cursor ?? undefined;
    }
    expect([...seen].slice(0, 3)).toEqual(['req-000000', 'req-000001', 'req-000002']);
    expect(seen.has('req-000499')).toBe(true);
  });

  it('reads the same for the default range (the last 7 days) and a small page', async () => {
    const first = await page('per_page=10');
    expect(first.work.items).toBeLessThanOrEqual(11);
    expect(first.body.data).toHaveLength(10);
    const second = await page(`per_page=10&starting_after=${first.body.pagination.next_cursor}`);
    expect(second.work.items).toBeLessThanOrEqual(11);
    expect(second.body.data[0]!.created_at <= first.body.data[9]!.created_at).toBe(true);
  });

  it('bounds a filter that matches nothing: at most AUDIT_EXAMINE_LIMIT records read, a short page and a cursor to go on from', async () => {
    const first = await page(`status=5xx&${range}`);
    expect(first.work.items).toBeLessThanOrEqual(AUDIT_EXAMINE_LIMIT);
    expect(first.body.data).toEqual([]);
    expect(first.body.pagination).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const second = await page(`status=5xx&${range}&starting_after=${first.body.pagination.next_cursor}`);
    expect(second.work.items).toBeLessThanOrEqual(AUDIT_EXAMINE_LIMIT);
    expect(second.body.data).toEqual([]);
    expect(second.body.pagination.next_cursor).not.toBe(first.body.pagination.next_cursor);
  });

  it('finds what a filter matches within the bound and goes on by cursor', async () => {
    const { body, work } = await page(`method=POST&per_page=25&${range}`);
    expect(work.items).toBeLessThanOrEqual(AUDIT_EXAMINE_LIMIT);
    expect(body.data).toHaveLength(25);
    expect(body.data.every((entry) => entry.method === 'POST')).toBe(true);
    expect(body.data[0]!.request_id).toBe('req-000000');
    expect(body.data[24]!.request_id).toBe('req-000240');
    const next = await page(`method=POST&per_page=25&${range}&starting_after=${body.pagination.next_cursor}`);
    expect(next.body.data[0]!.request_id).toBe('req-000250');
  });

  it('ends with has_more false and no cursor on the last page of a range', async () => {
    const narrow = `from=${encodeURIComponent(timeOf(149))}&to=${encodeURIComponent(timeOf(0))}`;
    const first = await page(`per_page=100&${narrow}`);
    expect(first.body.data).toHaveLength(100);
    const second = await page(`per_page=100&${narrow}&starting_after=${first.body.pagination.next_cursor}`);
    expect(second.body.data).toHaveLength(50);
    expect(second.body.pagination).toEqual({ page: 1, per_page: 100, has_more: false, next_cursor: null });
    expect(second.work.items).toBeLessThanOrEqual(101);
  });

  it('refuses page numbers beyond 1 and a cursor it did not hand out', async () => {
    const deep = await call('GET', '/v1/audit-logs?page=2', { key });
    expect(deep.status).toBe(422);
    expect(deep.body.error.details).toEqual([
      expect.objectContaining({ field: 'page', message: expect.stringContaining('starting_after') }),
    ]);
    for (const cursor of ['abc', 'eyJhIjoxfQ', Buffer.from('{"a":"x","f":"y"}').toString('base64url')]) {
      const response = await call('GET', `/v1/audit-logs?starting_after=${cursor}`, { key });
      expect(response.status, cursor).toBe(422);
      expect(response.body.error.details![0]!.field).toBe('starting_after');
    }
  });
});

describe("GET /v1/webhooks/{id}/deliveries beyond the total's cap", () => {
  const DELIVERIES = TOTAL_CAP + 50;
  let shop: Awaited<ReturnType<typeof freshShop>>;
  let webhookId: number;
  /** Delivery ids, newest first. */
  let ids: string[];
  const kindOf = (index: number) => (index % 3 === 0 ? 'order.created' : 'customer.created');

  beforeAll(async () => {
    shop = await freshShop('Deliveries Cap');
    webhookId = (await register(shop.secretTest, { url: 'https://hooks.example.com/cap', events: ['*'], active: false })).id;
    const newest = Date.now();
    const deliveries = Array.from({ length: DELIVERIES }, (_, index) => {
      const eventId = `evt_${idTime(newest - index * 1000)}${randomToken(14)}`;
      const created = new Date(newest - index * 1000).toISOString();
      const delivery = pendingDelivery({
        id: deliveryIdFor(eventId, shop.tenant, webhookId),
        webhook_id: webhookId,
        event_id: eventId,
        event: kindOf(index),
        test: false,
        token: randomToken(16),
        created_at: created,
        expires_at: Math.floor(newest / 1000) + 3600,
      });
      // Finished deliveries: out of the sweeper's way.
      return { ...delivery, status: 'succeeded' as const, attempt_count: 1 };
    });
    ids = deliveries.map((delivery) => delivery.id);
    await batchWriteAll(deliveries.map((delivery) => putRequest(deliveryPut(shop.tenant, delivery).Put!.Item!)));
  }, 120_000);

  async function history(query: string) {
    const response = await call('GET', `/v1/webhooks/${webhookId}/deliveries?${query}`, { key: shop.secretTest });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { body: response.body, work: dynamoDbWork(response) };
  }

  it('counts the total no further than the cap and says so; the page reads a page of keys and items', async () => {
    const { body, work } = await history('per_page=10');
    expect(body.data.map((delivery) => delivery.id)).toEqual(ids.slice(0, 10));
    expect(body.pagination).toEqual({
      page: 1,
      per_page: 10,
      total: TOTAL_CAP,
      total_pages: TOTAL_CAP / 10,
      total_capped: true,
      has_more: true,
      next_cursor: ids[9],
    });
    // The registration, 11 keys of the page, its 10 items, and at most TOTAL_CAP + 1 keys counted.
    expect(work.items, work.commands.join(',')).toBeLessThanOrEqual(1 + 11 + 10 + TOTAL_CAP + 1);
    expect(work.calls).toBeLessThanOrEqual(4);
  });

  it('pages by cursor and by number alike', async () => {
    const second = await history(`per_page=10&starting_after=${ids[9]}`);
    expect(second.body.data.map((delivery) => delivery.id)).toEqual(ids.slice(10, 20));
    expect((await history('per_page=10&page=2')).body.data.map((delivery) => delivery.id)).toEqual(ids.slice(10, 20));
    const last = await history(`per_page=10&starting_after=${ids[DELIVERIES - 6]}`);
    expect(last.body.data.map((delivery) => delivery.id)).toEqual(ids.slice(DELIVERIES - 5));
    expect(last.body.pagination).toMatchObject({ has_more: false, next_cursor: null, total: TOTAL_CAP, total_capped: true });
  });

  it('filters by kind on the keys, with a lower-bound total among the first keys', async () => {
    const { body } = await history('per_page=5&event=order.created');
    const orderIds = ids.filter((_, index) => kindOf(index) === 'order.created');
    expect(body.data.map((delivery) => delivery.id)).toEqual(orderIds.slice(0, 5));
    expect(body.pagination).toMatchObject({
      total: Math.ceil(TOTAL_CAP / 3),
      total_capped: true,
      has_more: true,
      next_cursor: orderIds[4],
    });
    const next = await history(`per_page=5&event=order.created&starting_after=${orderIds[4]}`);
    expect(next.body.data.map((delivery) => delivery.id)).toEqual(orderIds.slice(5, 10));
  });

  it('answers an exact zero for an empty status', async () => {
    const { body } = await history('status=failed');
    expect(body.pagination).toEqual({
      page: 1,
      per_page: 25,
      total: 0,
      total_pages: 0,
      total_capped: false,
      has_more: false,
      next_cursor: null,
    });
  });

  it('refuses a cursor with a page number, and a cursor that is no delivery id', async () => {
    expect(
      (await call('GET', `/v1/webhooks/${webhookId}/deliveries?page=2&starting_after=${ids[0]}`, { key: shop.secretTest })).status,
    ).toBe(422);
    expect((await call('GET', `/v1/webhooks/${webhookId}/deliveries?starting_after=evt_1`, { key: shop.secretTest })).status).toBe(422);
  });
});

describe('GET /v1/products by cursor over a catalogue of 3,000', () => {
  const CATALOGUE = 3000;
  const categories = ['flyers', 'posters', 'cards'];
  /** Created one second apart, id order: newest first is highest id first. */
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  let shop: Awaited<ReturnType<typeof freshShop>>;
  let publishable: string;
  let products: ProductRecord[];

  /** A product of the synthetic catalogue: names in another order than ids, every 7th archived. */
  const catalogueProduct = (id: number, createdAt = new Date(start + id * 1000).toISOString()): ProductRecord =>
    productRecord({
      id,
      name: `${id % 2 ? 'Alpha' : 'Beta'} ${String((id * 7919) % 100_003).padStart(6, '0')}`,
      category: categories[id % 3]!,
      is_active: id % 7 !== 0,
      created_at: createdAt,
      updated_at: createdAt,
    });

  /** Writes the products with their list entries and counters, as their creation would. */
  async function writeCatalogue(tenant: Tenant, records: ProductRecord[]) {
    const totals = new Map<string, number>();
    for (const record of records) for (const counter of countersOf(record)) totals.set(counter, (totals.get(counter) ?? 0) + 1);
    await batchWriteAll([
      ...records.flatMap((record) =>
        [productPut(tenant, record), ...listEntryPuts(tenant, record)].map((put) => putRequest(put.Put!.Item!)),
      ),
      ...[...totals].map(([counter, total]) => putRequest({ ...tenantKeys.total(tenant, counter), total })),
    ]);
  }

  const newestFirst = (records: ProductRecord[]) => records.toSorted((a, b) => b.id - a.id).map((record) => record.id);
  const byName = (records: ProductRecord[]) =>
    records.toSorted((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1)).map((record) => record.id);

  beforeAll(async () => {
    shop = await freshShop('Large Catalogue');
    publishable = (await createApiKey({ accountId: shop.accountId, mode: 'test', kind: 'publishable' })).key;
    products = Array.from({ length: CATALOGUE }, (_, index) => catalogueProduct(index + 1));
    await writeCatalogue(shop.tenant, products);
  }, 120_000);

  async function list(query: string, key = shop.secretTest) {
    const response = await call('GET', `/v1/products?${query}`, { key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { body: response.body, work: dynamoDbWork(response) };
  }

  /**
   * Walks a list by cursor to its end: the ids in the order served, each page's work checked —
   * the cursor product (one GetItem), the page's keys and one more, its items, and the total
   * (a counter: one GetItem; a name prefix: counted up to TOTAL_CAP keys).
   */
  const walk = (query: string, { key = shop.secretTest, perPage = 100, counted = false } = {}) =>
    walkByCursor(`/v1/products?per_page=${perPage}&${query}`, key, {
      calls: 4,
      items: 1 + perPage + 1 + perPage + (counted ? TOTAL_CAP + 1 : 1),
    });

  it('walks the whole catalogue by cursor: every product once, newest first, each page reading only its own keys', async () => {
    const ids = await walk('');
    expect(ids).toEqual(newestFirst(products));
    expect(new Set(ids).size).toBe(CATALOGUE);
  });

  it('reads a deep page by cursor at the cost of the first, where its page number reads every key before it', async () => {
    const all = newestFirst(products);
    const byNumber = await list('per_page=100&page=30');
    const byCursor = await list(`per_page=100&starting_after=${all[2899]}`);
    expect(byCursor.body.data).toEqual(byNumber.body.data);
    expect(byCursor.body.data.map((product: { id: number }) => product.id)).toEqual(all.slice(2900, 3000));
    expect(byCursor.body.pagination).toEqual({
      page: 1,
      per_page: 100,
      total: CATALOGUE,
      total_pages: 30,
      total_capped: false,
      has_more: false,
      next_cursor: null,
    });
    // The cursor product, the page's 100 keys (the list ends there), its 100 items, the counter.
    expect(byCursor.work.commands.toSorted()).toEqual(['BatchGetItem[100]', 'GetItem[1]', 'GetItem[1]', 'Query[100]']);
    // Page 30 reads the 2,900 keys before it too.
    expect(byNumber.work.items, byNumber.work.commands.join(',')).toBeGreaterThanOrEqual(3000);
    const middle = await list(`per_page=100&starting_after=${all[1499]}`);
    expect(middle.work.commands.toSorted()).toEqual(['BatchGetItem[100]', 'GetItem[1]', 'GetItem[1]', 'Query[101]']);
    expect(middle.body.pagination).toMatchObject({ has_more: true, next_cursor: String(all[1599]) });
  });

  it('walks every filter by cursor: state, name prefix, category, category with prefix, a storefront', async () => {
    const active = products.filter((product) => product.is_active);
    const alpha = products.filter((product) => product.name.startsWith('Alpha'));
    const posters = products.filter((product) => product.category === 'posters');
    expect(await walk('is_active=false')).toEqual(newestFirst(products.filter((product) => !product.is_active)));
    expect(await walk('q=ALPHA', { counted: true })).toEqual(byName(alpha));
    expect(await walk('category=Posters', { perPage: 77 })).toEqual(byName(posters));
    expect(await walk('category=posters&q=beta&is_active=true', { counted: true })).toEqual(
      byName(posters.filter((product) => product.is_active && product.name.startsWith('Beta'))),
    );
    // A storefront sees the active catalogue only.
    expect(await walk('', { key: publishable })).toEqual(newestFirst(active));
    expect(await walk('q=alpha', { key: publishable, counted: true })).toEqual(byName(alpha.filter((product) => product.is_active)));
  });

  it("positions a cursor outside the filter by its place in the list's order", async () => {
    const alpha = byName(products.filter((product) => product.name.startsWith('Alpha')));
    const beta = byName(products.filter((product) => product.name.startsWith('Beta')));
    // Every "alpha…" name sorts before the "beta…" ones: after a beta product no alpha follows, after an alpha product every beta does.
    const past = await list(`q=alpha&starting_after=${beta[0]}`);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toMatchObject({ has_more: false, next_cursor: null, total: TOTAL_CAP, total_capped: true });
    expect(past.work.commands.filter((command) => command.startsWith('BatchGetItem'))).toEqual([]);
    const before = await list(`q=beta&per_page=5&starting_after=${alpha.at(-1)}`);
    expect(before.body.data.map((product: { id: number }) => product.id)).toEqual(beta.slice(0, 5));
    // A flyer as the cursor of the posters: the posters whose names sort after its name.
    const flyer = products.find((product) => product.category === 'flyers')!;
    const posters = products.filter((product) => product.category === 'posters');
    const after = byName(posters.filter((product) => product.name.toLowerCase() > flyer.name.toLowerCase()));
    const inPosters = await list(`category=posters&per_page=5&starting_after=${flyer.id}`);
    expect(inPosters.body.data.map((product: { id: number }) => product.id)).toEqual(after.slice(0, 5));
    // An active product as the cursor of the archived ones: the archived ones created before it.
    const archived = await list('is_active=false&per_page=3&starting_after=100');
    expect(archived.body.data.map((product: { id: number }) => product.id)).toEqual([98, 91, 84]);
  });

  it('refuses a cursor the tenant does not have and a cursor with a page number; a storefront walk goes on past a product archived meanwhile', async () => {
    const expectUnknown = async (response: ApiResponse) => {
      expect(response.status, JSON.stringify(response.body)).toBe(422);
      expect(response.body.error.details).toEqual([{ field: 'starting_after', message: expect.stringContaining('No product with id') }]);
    };
    await expectUnknown(await call('GET', `/v1/products?starting_after=${CATALOGUE + 1}`, { key: shop.secretTest }));
    // The same account's live mode is another tenant: its catalogue is empty.
    await expectUnknown(await call('GET', '/v1/products?starting_after=1', { key: shop.secretLive }));
    // A storefront's page ended on a product archived since: the next page follows its place (the active ones before it, newest first).
    const storefront = await call('GET', '/v1/products?starting_after=7&per_page=2', { key: publishable });
    expect(storefront.status, JSON.stringify(storefront.body)).toBe(200);
    expect(storefront.body.data.map((product: { id: number }) => product.id)).toEqual([6, 5]);
    expect((await list('starting_after=7&per_page=1')).body.data.map((product: { id: number }) => product.id)).toEqual([6]);
    const both = await call('GET', '/v1/products?page=2&starting_after=10', { key: shop.secretTest });
    expect(both.status).toBe(422);
    expect(both.body.error.details).toEqual([{ field: 'page', message: 'use either page or starting_after' }]);
    for (const cursor of ['0', 'abc', '-1', '9007199254740993']) {
      const response = await call('GET', `/v1/products?starting_after=${cursor}`, { key: shop.secretTest });
      expect(response.status, cursor).toBe(422);
      expect(response.body.error.details![0]!.field).toBe('starting_after');
    }
  });

  it("never positions a cursor by another tenant's product of the same id", async () => {
    const other = await freshShop('Small Catalogue');
    // Ids 1–5 exist in both tenants; the other's were all created after this catalogue's.
    const later = Date.parse('2026-06-01T00:00:00.000Z');
    await writeCatalogue(
      other.tenant,
      [1, 2, 3, 4, 5].map((id) => catalogueProduct(id, new Date(later + id * 1000).toISOString())),
    );
    const own = await call('GET', '/v1/products?starting_after=3', { key: other.secretTest });
    expect(own.body.data.map((product: { id: number }) => product.id)).toEqual([2, 1]);
    const unknown = await call('GET', `/v1/products?starting_after=${CATALOGUE}`, { key: other.secretTest });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details![0]!.field).toBe('starting_after');
  });
});

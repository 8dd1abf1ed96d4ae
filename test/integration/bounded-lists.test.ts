/**
 * Reads bounded by the page, never by the history: a tenant with 200,000 audit records (a few
 * days of a busy shop) pages through `GET /v1/audit-logs` by cursor, and every request reads at
 * most a page's worth of records — counted by the local gateway's DynamoDB counters (the items
 * each read returned or examined, `X-Local-DynamoDB-Commands`). The records are written straight
 * into the table with BatchWriteItem, as the audit shipper writes them. A webhook with more
 * deliveries than the total cap pages its history by number and by cursor with a capped total.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount, setPlan } from '#shared/accounts/service';
import { AUDIT_EXAMINE_LIMIT } from '#shared/audit/repository';
import { auditItem, type AuditRecord } from '#shared/audit/stored';
import { batchWriteAll, putRequest } from '#shared/db/batch';
import { TOTAL_CAP } from '#shared/db/collections';
import { idTime, randomToken } from '#shared/ids';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';
import { deliveryPut, pendingDelivery } from '#shared/webhooks/stored';
import { call, dynamoDbWork } from '#test/support/http';
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
  };
}

beforeAll(async () => {
  const created = await createAccount({ name: 'Busy Shop', plan: 'enterprise' });
  await setPlan(created.account.id, 'enterprise', 1_000_000);
  key = created.keys.secret_test.key;
  const tenant = { accountId: created.account.id, mode: 'test' as const };
  const items = Array.from({ length: RECORDS }, (_, index) => putRequest(auditItem(tenant, record(index))));
  await batchWriteAll(items, 16);
}, 600_000);

async function page(query: string) {
  const response = await call('GET', `/v1/audit-logs?${query}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { body: response.body, work: dynamoDbWork(response) };
}

describe('GET /v1/audit-logs over 200,000 records', () => {
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
      cursor = body.pagination.next_cursor;
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
    expect(second.body.data[0].created_at <= first.body.data[9].created_at).toBe(true);
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
    expect(body.data.every((entry: any) => entry.method === 'POST')).toBe(true);
    expect(body.data[0].request_id).toBe('req-000000');
    expect(body.data[24].request_id).toBe('req-000240');
    const next = await page(`method=POST&per_page=25&${range}&starting_after=${body.pagination.next_cursor}`);
    expect(next.body.data[0].request_id).toBe('req-000250');
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
      expect(response.body.error.details[0].field).toBe('starting_after');
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
    expect(body.data.map((delivery: any) => delivery.id)).toEqual(ids.slice(0, 10));
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
    expect(second.body.data.map((delivery: any) => delivery.id)).toEqual(ids.slice(10, 20));
    expect((await history('per_page=10&page=2')).body.data.map((delivery: any) => delivery.id)).toEqual(ids.slice(10, 20));
    const last = await history(`per_page=10&starting_after=${ids[DELIVERIES - 6]}`);
    expect(last.body.data.map((delivery: any) => delivery.id)).toEqual(ids.slice(DELIVERIES - 5));
    expect(last.body.pagination).toMatchObject({ has_more: false, next_cursor: null, total: TOTAL_CAP, total_capped: true });
  });

  it('filters by kind on the keys, with a lower-bound total among the first keys', async () => {
    const { body } = await history('per_page=5&event=order.created');
    const orderIds = ids.filter((_, index) => kindOf(index) === 'order.created');
    expect(body.data.map((delivery: any) => delivery.id)).toEqual(orderIds.slice(0, 5));
    expect(body.pagination).toMatchObject({
      total: Math.ceil(TOTAL_CAP / 3),
      total_capped: true,
      has_more: true,
      next_cursor: orderIds[4],
    });
    const next = await history(`per_page=5&event=order.created&starting_after=${orderIds[4]}`);
    expect(next.body.data.map((delivery: any) => delivery.id)).toEqual(orderIds.slice(5, 10));
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

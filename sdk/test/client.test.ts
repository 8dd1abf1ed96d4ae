/**
 * The SDK's client factory over a fake fetch: the key and base URL on every request, retries of
 * 429 and 503 honouring Retry-After, and the pagination helper over cursor and page-numbered lists.
 */
import { describe, expect, it } from 'vitest';
import { createPrintShop, customersCreate, ordersGet, ordersList, type PrintShopOptions } from '../src';
import { retryDelay } from '../src/retry';

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A fetch that records each request and answers from `answers` in turn (the last repeats). */
function fakeFetch(answers: (() => Response)[]) {
  const sent: Sent[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    return answers[Math.min(sent.length - 1, answers.length - 1)]!();
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const rateLimited = (retryAfter: string) => json(429, { success: false, error: { code: 'rate_limited' } }, { 'Retry-After': retryAfter });
const order = (id: number) => ({ id, order_number: `ORD-${id}` });

function shopOver(answers: (() => Response)[], options: Partial<PrintShopOptions> = {}) {
  const { fetch, sent } = fakeFetch(answers);
  const waits: number[] = [];
  const shop = createPrintShop({
    baseUrl: 'https://api.example.com/',
    apiKey: 'sk_test_abc',
    fetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { shop, sent, waits };
}

describe('createPrintShop', () => {
  it('sends the API key as a bearer token to the base URL', async () => {
    const { shop, sent } = shopOver([json(200, { success: true, data: order(7) })]);
    const { data } = await ordersGet({ client: shop.client, path: { id: '7' }, throwOnError: true });
    expect(data.data.id).toBe(7);
    expect(sent[0]!.url).toBe('https://api.example.com/v1/orders/7');
    expect(sent[0]!.headers.get('Authorization')).toBe('Bearer sk_test_abc');
  });

  it('gives a new Idempotency-Key each time, or the one asked for', () => {
    const { shop } = shopOver([]);
    const first = shop.idempotencyKey()['Idempotency-Key'];
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(shop.idempotencyKey()['Idempotency-Key']).not.toBe(first);
    expect(shop.idempotencyKey('order-42')).toEqual({ 'Idempotency-Key': 'order-42' });
  });

  it('retries a 429 after Retry-After, resending the same body and Idempotency-Key', async () => {
    const created = { success: true, data: { id: 1, name: 'Anna' } };
    const { shop, sent, waits } = shopOver([rateLimited('2'), rateLimited('1'), json(201, created)]);
    const { data } = await customersCreate({
      client: shop.client,
      body: { name: 'Anna', email: 'anna@example.com' },
      headers: shop.idempotencyKey('k-1'),
      throwOnError: true,
    });
    expect(data).toEqual(created);
    expect(waits).toEqual([2000, 1000]);
    expect(sent.map((request) => [request.method, request.body, request.headers.get('Idempotency-Key')])).toEqual(
      Array(3).fill(['POST', JSON.stringify({ name: 'Anna', email: 'anna@example.com' }), 'k-1']),
    );
  });

  it('gives up after its retries and returns the last answer', async () => {
    const { shop, sent } = shopOver([rateLimited('1')], { retries: 1 });
    const result = await ordersGet({ client: shop.client, path: { id: '7' } });
    expect(result.response?.status).toBe(429);
    expect(sent).toHaveLength(2);
  });

  it('does not wait longer than maxDelayMs: that answer is returned', async () => {
    const { shop, sent, waits } = shopOver([rateLimited('3600'), json(200, {})], { maxDelayMs: 60_000 });
    const result = await ordersGet({ client: shop.client, path: { id: '7' } });
    expect(result.response?.status).toBe(429);
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('retries a 503 of a GET, and of a POST only with an Idempotency-Key', async () => {
    const unavailable = json(503, { success: false, error: { code: 'service_unavailable' } });
    const get = shopOver([unavailable, json(200, { success: true, data: order(7) })]);
    expect((await ordersGet({ client: get.shop.client, path: { id: '7' } })).response?.status).toBe(200);
    expect(get.waits).toEqual([500]);

    const body = { name: 'Anna', email: 'anna@example.com' };
    const bare = shopOver([unavailable, json(201, {})]);
    expect((await customersCreate({ client: bare.shop.client, body })).response?.status).toBe(503);
    expect(bare.sent).toHaveLength(1);

    const keyed = shopOver([unavailable, json(201, { success: true, data: { id: 1 } })]);
    const result = await customersCreate({ client: keyed.shop.client, body, headers: keyed.shop.idempotencyKey() });
    expect(result.response?.status).toBe(201);
    expect(keyed.sent).toHaveLength(2);
  });

  it('pages a cursor list by next_cursor, keeping the filters', async () => {
    const page = (ids: number[], nextCursor: string | null) =>
      json(200, {
        success: true,
        data: ids.map(order),
        pagination: { page: 1, per_page: 2, has_more: nextCursor !== null, next_cursor: nextCursor },
      });
    const { shop, sent } = shopOver([page([1, 2], '2'), page([3, 4], '4'), page([5], null)]);
    const ids: number[] = [];
    const orders = shop.paginate((query) => ordersList({ client: shop.client, query, throwOnError: true }), {
      status: 'pending',
      per_page: 2,
    });
    for await (const listed of orders) ids.push(listed.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(sent.map((request) => new URL(request.url).search)).toEqual([
      '?status=pending&per_page=2',
      '?status=pending&per_page=2&starting_after=2',
      '?status=pending&per_page=2&starting_after=4',
    ]);
  });

  it('pages a list without cursors by page number while has_more', async () => {
    const page = (ids: number[], number: number, hasMore: boolean) =>
      json(200, { success: true, data: ids.map(order), pagination: { page: number, per_page: 2, has_more: hasMore } });
    const { shop, sent } = shopOver([page([1, 2], 1, true), page([3], 2, false)]);
    const ids: number[] = [];
    for await (const listed of shop.paginate((query) => ordersList({ client: shop.client, query, throwOnError: true })))
      ids.push(listed.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(sent.map((request) => new URL(request.url).search)).toEqual(['', '?page=2']);
  });

  it('throws the error answer of a page', async () => {
    const { shop } = shopOver([json(422, { success: false, error: { code: 'validation_error' } })]);
    const pages = shop.paginate((query) => ordersList({ client: shop.client, query, throwOnError: true }));
    await expect(pages.next()).rejects.toMatchObject({ error: { code: 'validation_error' } });
  });
});

describe('retryDelay', () => {
  it('reads Retry-After as seconds or an HTTP date, else backs off exponentially', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(retryDelay('7', 0, now)).toBe(7000);
    expect(retryDelay('Sat, 28 Nov 2026 10:00:30 GMT', 0, now)).toBe(30_000);
    expect(retryDelay(null, 0, now)).toBe(500);
    expect(retryDelay('soon', 2, now)).toBe(2000);
  });
});

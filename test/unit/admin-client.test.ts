import { describe, expect, it, vi } from 'vitest';
import { ApiClient, ApiError, queryString } from '#admin/api/client';

function fakeFetch(status: number, body: unknown, headers: Record<string, string> = {}) {
  return vi.fn(
    async (_input: string | URL | Request, _init?: RequestInit) =>
      new Response(body === undefined ? null : JSON.stringify(body), { status, headers }),
  );
}

describe('admin API client', () => {
  it('sends the key as a bearer token, JSON bodies, and unwraps the envelope', async () => {
    const fetch = fakeFetch(201, { success: true, data: { id: 7, url: 'https://example.com', secret: 'whsec_x' } });
    const client = new ApiClient({ baseUrl: 'https://api.example.com/prod/', key: 'sk_test_abc', fetch });
    const created = await client.createWebhook({ url: 'https://example.com', events: ['*'], active: true, description: null });
    expect(created).toMatchObject({ id: 7, secret: 'whsec_x' });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('https://api.example.com/prod/v1/webhooks');
    expect(init).toMatchObject({ method: 'POST', credentials: 'omit' });
    expect(init!.headers).toMatchObject({ Authorization: 'Bearer sk_test_abc', 'Content-Type': 'application/json' });
    expect(JSON.parse(init!.body as string)).toEqual({ url: 'https://example.com', events: ['*'], active: true, description: null });
  });

  it('pages lists with filters in the query string', async () => {
    const fetch = fakeFetch(200, { success: true, data: [], pagination: { page: 2, per_page: 20, total: 21, total_pages: 2 } });
    const client = new ApiClient({ baseUrl: '', key: 'sk_test_abc', fetch });
    const page = await client.listDeliveries(3, { page: 2, status: 'failed' });
    expect(fetch.mock.calls[0]![0]).toBe('/v1/webhooks/3/deliveries?page=2&per_page=20&status=failed');
    expect(page).toEqual({ items: [], pagination: { page: 2, per_page: 20, total: 21, total_pages: 2 } });
    expect(queryString({ a: 1, b: undefined, c: '' })).toBe('?a=1');
  });

  it('turns error bodies into ApiError with field details and the request id', async () => {
    const fetch = fakeFetch(422, {
      success: false,
      error: {
        code: 'validation_failed',
        message: 'The webhook URL is not allowed',
        details: [{ field: 'url', message: 'must use https' }],
        request_id: 'req-9',
      },
    });
    const client = new ApiClient({ baseUrl: '', key: 'sk_test_abc', fetch });
    const error = await client.getWebhook(1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      details: [{ field: 'url', message: 'must use https' }],
      requestId: 'req-9',
    });
  });

  it('reports a 401 so the session ends, and an unreachable API as status 0', async () => {
    const onUnauthorized = vi.fn();
    const unauthorized = new ApiClient({
      baseUrl: '',
      key: 'sk_test_gone',
      onUnauthorized,
      fetch: fakeFetch(401, {
        success: false,
        error: { code: 'unauthorized', message: 'Missing or invalid credentials', request_id: 'r' },
      }),
    });
    await expect(unauthorized.account()).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    const offline = new ApiClient({
      baseUrl: 'https://api.example.com',
      key: 'sk_test_abc',
      fetch: vi.fn(async () => Promise.reject(new TypeError('fetch failed'))),
    });
    await expect(offline.account()).rejects.toMatchObject({ status: 0, code: 'network_error' });

    const html = new ApiClient({
      baseUrl: '',
      key: 'sk_test_abc',
      fetch: vi.fn(
        async () =>
          new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'X-Request-Id': 'gw-1' } }),
      ),
    });
    await expect(html.account()).rejects.toMatchObject({ status: 502, code: 'http_502', requestId: 'gw-1' });
  });

  it('sends test events without an envelope and escapes delivery ids', async () => {
    const fetch = fakeFetch(200, { success: true, message: 'Test webhook sent' });
    const client = new ApiClient({ baseUrl: '', key: 'sk_test_abc', fetch });
    expect(await client.sendTest(4, 'order.created')).toEqual({ success: true, message: 'Test webhook sent' });
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ event: 'order.created' });
    await client.redeliver(4, 'wh_a/b').catch(() => undefined);
    expect(fetch.mock.calls[1]![0]).toBe('/v1/webhooks/4/deliveries/wh_a%2Fb/redeliver');
  });
});

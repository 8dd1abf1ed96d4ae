/**
 * The webhook pipeline end to end against the local stack: outbox → stream poller → router →
 * SQS → delivery worker → a real receiver on loopback; retries (WEBHOOK_RETRY_SCHEDULE=1,1,1 from
 * the global setup: 4 attempts), the DLQ handler, delivery history, redelivery, test events.
 */
import { createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '#docs/examples/verify-webhook';
import { hexSignature } from '#shared/webhooks/signing';
import { call, uniqueEmail, type Query } from '#test/support/http';
import { useReceiver } from '#test/support/receiver';
import { storedDelivery } from '#test/support/store';
import { deliveryQueuesDrained, eventually } from '#test/support/wait';
import { deliveries, deliveryWhen, freshShop, registerForTest, type Shop } from '#test/support/webhooks';

let shop: Shop;
let stranger: Shop;

/** A receiver for the running test (closed when it finishes). */
const receiver = (statuses?: number[]) => useReceiver({ statuses });

beforeAll(async () => {
  [shop, stranger] = await Promise.all([freshShop('Webhook Deliveries'), freshShop('Webhook Deliveries Other')]);
});

async function createCustomer(key = shop.secretTest) {
  const response = await call('POST', '/v1/customers', { key, body: { name: 'Anna Schmidt', email: uniqueEmail('hook') } });
  expect(response.status).toBe(201);
  return response.body.data;
}

/**
 * For the tests that expect nothing (more) to arrive: every delivery message sent so far has been
 * handled to the end — attempted, retried, dead-lettered or dropped — so no request can still come.
 */
const settled = () => deliveryQueuesDrained();

describe('a delivery', () => {
  it('reaches a loopback receiver with exactly the documented body and headers, verifiably signed', async () => {
    const hook = await receiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['customer.created'] });
    const customer = await createCustomer();
    const [request] = await hook.waitFor(1);
    const { headers, rawBody } = request!;
    const body = JSON.parse(rawBody);

    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks');
    expect(body.id).toMatch(/^wh_[0-9A-Za-z]{24}$/);
    expect(body.event_id).toMatch(/^evt_/);
    expect(Math.abs(Date.parse(body.timestamp) - Date.parse(customer.created_at))).toBeLessThan(1000);
    // Byte for byte: key order, and the customer exactly as the API returned it.
    expect(rawBody).toBe(
      JSON.stringify({
        id: body.id,
        event_id: body.event_id,
        event: 'customer.created',
        timestamp: body.timestamp,
        mode: 'test',
        data: { customer },
      }),
    );

    const now = Math.floor(Date.now() / 1000);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['user-agent']).toBe('PrintShopAPI-Webhooks/1.0');
    expect(headers['x-webhook-id']).toBe(body.id);
    expect(headers['x-webhook-event']).toBe('customer.created');
    expect(headers['x-webhook-attempt']).toBe('1');
    expect(Math.abs(Number(headers['x-webhook-timestamp']) - now)).toBeLessThan(30);
    expect(headers['webhook-id']).toBe(body.id);
    expect(headers['webhook-timestamp']).toBe(headers['x-webhook-timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    // The receiver's check: HMAC over the raw body with the secret equals the header; a tampered body does not.
    const signature = headers['x-webhook-signature'] as string;
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(createHmac('sha256', webhook.secret).update(rawBody).digest('hex')).toBe(signature);
    expect(createHmac('sha256', webhook.secret).update(rawBody.replace('Anna', 'Anne')).digest('hex')).not.toBe(signature);
    expect(verifyWebhook(rawBody, headers, webhook.secret)).toEqual({ ok: true });
    expect(verifyWebhook(rawBody.replace('Anna', 'Anne'), headers, webhook.secret)).toEqual({ ok: false, reason: 'signature mismatch' });

    const delivery = await deliveryWhen(shop.secretTest, webhook.id, body.id, (value) => value.status === 'succeeded');
    expect(delivery).toMatchObject({
      id: body.id,
      webhook_id: webhook.id,
      event_id: body.event_id,
      event: 'customer.created',
      test: false,
      attempt_count: 1,
      last_status_code: 200,
      next_attempt_at: null,
    });
    expect(delivery.payload).toEqual(body);
    expect(delivery.attempts).toEqual([
      { attempt: 1, attempted_at: expect.any(String), status_code: 200, duration_ms: expect.any(Number), error: null, response_body: 'ok' },
    ]);
  });

  it('is retried after 500, 500 and succeeds on the third attempt with the same delivery id', async () => {
    const hook = await receiver([500, 500, 200]);
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['customer.created'] });
    await createCustomer();
    const requests = await hook.waitFor(3);
    const ids = requests.map((request) => JSON.parse(request.rawBody).id);
    expect(new Set(ids).size).toBe(1);
    expect(requests.map((request) => request.headers['x-webhook-id'])).toEqual(ids);
    expect(requests.map((request) => request.headers['x-webhook-attempt'])).toEqual(['1', '2', '3']);
    // Same bytes every attempt; the signature changes only through the Standard Webhooks timestamp.
    expect(new Set(requests.map((request) => request.rawBody)).size).toBe(1);

    const delivery = await deliveryWhen(shop.secretTest, webhook.id, ids[0], (value) => value.status === 'succeeded');
    expect(delivery.attempt_count).toBe(3);
    expect(delivery.attempts.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(delivery.attempts[0]).toMatchObject({ error: 'receiver answered 500', response_body: 'status 500' });
  });

  it('ends failed after the configured attempts, dead-lettered, and can be redelivered', async () => {
    const hook = await receiver([503]);
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['customer.created'] });
    await createCustomer();
    const requests = await hook.waitFor(4);
    const id = JSON.parse(requests[0]!.rawBody).id;
    const delivery = await deliveryWhen(shop.secretTest, webhook.id, id, (value) => value.status === 'failed');
    expect(delivery.attempt_count).toBe(4);
    expect(delivery.attempts).toHaveLength(4);
    expect(delivery.last_error).toBe('dead-lettered: retry schedule exhausted');
    // Marked by the DLQ handler from the message the worker moved to the DLQ.
    expect((await storedDelivery(shop.tenant, id))?.dead_lettered_at).toEqual(expect.any(String));
    await settled();
    expect(hook.requests).toHaveLength(4); // nothing after the last attempt

    const redelivered = await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${id}/redeliver`, { key: shop.secretTest });
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.data).toMatchObject({ id, status: 'pending' });
    const again = await hook.waitFor(5);
    expect(JSON.parse(again[4]!.rawBody).id).toBe(id);
    expect(again[4]!.headers['x-webhook-attempt']).toBe('5');
  });
});

describe('who receives what', () => {
  it('sends nothing to another kind, an inactive webhook, another account or the other mode', async () => {
    const [target, otherKind, inactive, otherAccount, otherMode] = await Promise.all([
      receiver(),
      receiver(),
      receiver(),
      receiver(),
      receiver(),
    ]);
    const webhook = await registerForTest(shop.secretTest, { url: target.url, events: ['customer.created'] });
    const silent = [
      await registerForTest(shop.secretTest, { url: otherKind.url, events: ['order.created', 'customer.updated'] }),
      await registerForTest(shop.secretTest, { url: inactive.url, events: ['customer.created'], active: false }),
      await registerForTest(stranger.secretTest, { url: otherAccount.url, events: ['*'] }),
      await registerForTest(shop.secretLive, { url: otherMode.url, events: ['*'] }),
    ];
    const customer = await createCustomer();
    const [request] = await target.waitFor(1);
    expect(JSON.parse(request!.rawBody).data.customer.id).toBe(customer.id);
    await settled();
    expect(target.requests).toHaveLength(1);
    for (const hook of [otherKind, inactive, otherAccount, otherMode]) expect(hook.requests).toHaveLength(0);
    expect((await deliveries(shop.secretTest, silent[0]!.id)).pagination.total).toBe(0);
    expect((await deliveries(shop.secretTest, silent[1]!.id)).pagination.total).toBe(0);
    expect((await deliveries(stranger.secretTest, silent[2]!.id)).pagination.total).toBe(0);
    expect((await deliveries(shop.secretLive, silent[3]!.id)).pagination.total).toBe(0);
    expect((await deliveries(shop.secretTest, webhook.id)).pagination.total).toBe(1);
  });

  it('disables a webhook whose receiver answers 410 Gone', async () => {
    const gone = await receiver([410]);
    const webhook = await registerForTest(shop.secretTest, { url: gone.url, events: ['customer.created'] });
    await createCustomer();
    const [request] = await gone.waitFor(1);
    const id = JSON.parse(request!.rawBody).id;
    const delivery = await deliveryWhen(shop.secretTest, webhook.id, id, (value) => value.status === 'failed');
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.last_error).toContain('410');
    const read = await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest });
    expect(read.body.data.active).toBe(false);
    // Paused: a redelivery is refused rather than silently skipped.
    expect((await call('POST', `/v1/webhooks/${webhook.id}/deliveries/${id}/redeliver`, { key: shop.secretTest })).status).toBe(409);
    expect((await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest })).status).toBe(409);
  });
});

describe('the test endpoint', () => {
  it('sends a test event through the pipeline under both prefixes, visible in the history', async () => {
    const hook = await receiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['invoice.paid'] });
    for (const path of [`/v1/webhooks/${webhook.id}/test`, `/api/v1/webhooks/${webhook.id}/test`]) {
      const response = await call('POST', path, { key: shop.secretTest });
      expect(response.status, path).toBe(200);
      expect(response.body).toEqual({ success: true, message: 'Test webhook sent' });
    }
    const requests = await hook.waitFor(2);
    for (const request of requests) {
      const body = JSON.parse(request.rawBody);
      expect(body).toMatchObject({ event: 'invoice.paid', mode: 'test', test: true, data: { invoice: { id: 0 } } });
      expect(request.headers['x-webhook-signature']).toBe(hexSignature(webhook.secret, request.rawBody));
    }
    const history = await deliveries(shop.secretTest, webhook.id);
    expect(history.pagination.total).toBe(2);
    expect(history.data.every((delivery) => delivery.test === true && delivery.event === 'invoice.paid')).toBe(true);
    // A chosen kind, and validation of it.
    expect((await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest, body: { event: 'order.shipped' } })).status).toBe(
      200,
    );
    const [, , third] = await hook.waitFor(3);
    expect(JSON.parse(third!.rawBody).event).toBe('order.shipped');
    expect((await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest, body: { event: 'nope' } })).status).toBe(422);
  });
});

describe('secret rotation', () => {
  it('signs with the new and, for 24 h, the old secret', async () => {
    const hook = await receiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['*'] });
    const rotated = (await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key: shop.secretTest })).body.data;
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest });
    const [request] = await hook.waitFor(1);
    const { rawBody, headers } = request!;
    expect(headers['x-webhook-signature']).toBe(`${hexSignature(rotated.secret, rawBody)},${hexSignature(webhook.secret, rawBody)}`);
    expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(rawBody, headers, rotated.secret)).toEqual({ ok: true });
    expect(verifyWebhook(rawBody, headers, webhook.secret)).toEqual({ ok: true });
  });
});

describe('the delivery history', () => {
  it('lists newest first and filters by status and event', async () => {
    const hook = await receiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['*'] });
    const customer = await createCustomer();
    await call('PUT', `/v1/customers/${customer.id}`, { key: shop.secretTest, body: { phone: '+49 30 1' } });
    await hook.waitFor(2);
    const all = await deliveryWhenCount(webhook.id, '', 2);
    expect(all.data.map((delivery) => delivery.event)).toEqual(['customer.updated', 'customer.created']);
    expect((await deliveryWhenCount(webhook.id, '?event=customer.updated', 1)).data[0]!.event).toBe('customer.updated');
    expect((await deliveryWhenCount(webhook.id, '?status=succeeded', 2)).pagination.total).toBe(2);
    expect((await deliveries(shop.secretTest, webhook.id, '?status=failed')).pagination.total).toBe(0);
    expect((await deliveries(shop.secretTest, webhook.id, '?status=succeeded&event=customer.created&per_page=1')).data).toHaveLength(1);
    const page2 = await deliveries(shop.secretTest, webhook.id, '?per_page=1&page=2');
    expect(page2.data[0]!.event).toBe('customer.created');
    expect(page2.pagination).toEqual({
      page: 2,
      per_page: 1,
      total: 2,
      total_pages: 2,
      total_capped: false,
      has_more: false,
      next_cursor: null,
    });
    const next = await deliveries(shop.secretTest, webhook.id, `?per_page=1&starting_after=${all.data[0]!.id}`);
    expect(next.data.map((delivery) => delivery.id)).toEqual([all.data[1]!.id]);

    for (const query of ['?status=lost', '?event=order.exploded', '?colour=red']) {
      const response = await call('GET', `/v1/webhooks/${webhook.id}/deliveries${query}`, { key: shop.secretTest });
      expect(response.status, query).toBe(422);
    }
    const unknownKind = await call('GET', `/v1/webhooks/${webhook.id}/deliveries?event=order.exploded`, { key: shop.secretTest });
    expect(unknownKind.body.error.details![0]!.message).toContain('customer.created');
  });

  it('keeps deliveries of one webhook out of another', async () => {
    const [a, b] = await Promise.all([receiver(), receiver()]);
    const first = await registerForTest(shop.secretTest, { url: a.url, events: ['customer.created'] });
    const second = await registerForTest(shop.secretTest, { url: b.url, events: ['customer.created'] });
    await createCustomer();
    const [request] = await a.waitFor(1);
    await b.waitFor(1);
    const id = JSON.parse(request!.rawBody).id;
    expect((await call('GET', `/v1/webhooks/${second.id}/deliveries/${id}`, { key: shop.secretTest })).status).toBe(404);
    expect((await call('GET', `/v1/webhooks/${first.id}/deliveries/${id}`, { key: stranger.secretTest })).status).toBe(404);
  });
});

const deliveryWhenCount = (webhookId: number, query: Query, count: number) =>
  eventually(
    () => deliveries(shop.secretTest, webhookId, query),
    (page) => page.pagination.total! >= count,
    10_000,
  );

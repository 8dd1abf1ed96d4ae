/**
 * The delivery worker's decisions, driven through the real queue: messages are put on the local
 * deliveries queue directly (as the router would) for delivery records prepared in the table.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';
import { deliveryMessage, sendDeliveryMessages } from '#shared/webhooks/messages';
import { dynamo } from '#shared/clients/dynamodb';
import { tableName } from '#shared/db/table';
import { insertDelivery, MAX_KEPT_ATTEMPTS, readDelivery, recordAttempt } from '#shared/webhooks/delivery-repository';
import { pendingDelivery as newPendingDelivery } from '#shared/webhooks/stored';
import { call } from '#test/support/http';
import { outboxEventItem } from '#test/support/lambda-events';
import { useReceiver } from '#test/support/receiver';
import { storedDelivery } from '#test/support/store';
import { deliveryQueuesDrained, eventually } from '#test/support/wait';
import { freshShop, register, type Shop } from '#test/support/webhooks';

let shop: Shop;
beforeAll(async () => {
  shop = await freshShop('Webhook Worker');
});

/**
 * An event in the outbox's shape. The webhooks here subscribe to `stock.low` only, so the router
 * leaves this `customer.created` alone and the test drives the delivery itself.
 */
async function storedEvent() {
  const item = outboxEventItem(shop.tenant, 'customer.created', { customer: { id: 42, name: 'Worker Test' } });
  await dynamo().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  return { id: String(item.event_id) };
}

/** A pending delivery for `webhookId` and the message that drives it. */
async function pendingDelivery(webhookId: number, options: { token?: string; nextAttemptAt?: string } = {}) {
  const event = await storedEvent();
  const id = deliveryIdFor(event.id, shop.tenant, webhookId);
  const now = new Date().toISOString();
  const token = options.token ?? 'chain-1';
  expect(
    await insertDelivery(
      shop.tenant,
      newPendingDelivery({
        id,
        webhook_id: webhookId,
        event_id: event.id,
        event: 'customer.created',
        test: false,
        token,
        created_at: now,
        expires_at: Math.floor(Date.now() / 1000) + 3600,
      }),
    ),
  ).toBe(true);
  if (options.nextAttemptAt) {
    await dynamo().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...(await storedDelivery(shop.tenant, id)), next_attempt_at: options.nextAttemptAt },
      }),
    );
  }
  return { id, send: (messageToken = token) => sendDeliveryMessages([deliveryMessage(shop.tenant, webhookId, id, messageToken)]) };
}

const statusOf = async (id: string) => (await storedDelivery(shop.tenant, id))?.status;

describe('the delivery worker', () => {
  it('records a delivery for a paused webhook as skipped, without calling it', async () => {
    const hook = await useReceiver();
    const webhook = await register(shop.secretTest, { url: hook.url, events: ['stock.low'], active: false });
    const delivery = await pendingDelivery(webhook.id);
    await delivery.send();
    expect(
      await eventually(
        () => statusOf(delivery.id),
        (status) => status === 'skipped',
      ),
    ).toBe('skipped');
    expect((await storedDelivery(shop.tenant, delivery.id))?.last_error).toBe('webhook inactive');
    expect(hook.requests).toHaveLength(0);
  });

  it('records a delivery for a deleted webhook as skipped', async () => {
    const hook = await useReceiver();
    const webhook = await register(shop.secretTest, { url: hook.url, events: ['stock.low'] });
    const delivery = await pendingDelivery(webhook.id);
    expect((await call('DELETE', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest })).status).toBe(200);
    await delivery.send();
    expect(
      await eventually(
        () => statusOf(delivery.id),
        (status) => status === 'skipped',
      ),
    ).toBe('skipped');
    expect((await storedDelivery(shop.tenant, delivery.id))?.last_error).toBe('webhook deleted');
    expect(hook.requests).toHaveLength(0);
  });

  it('drops a superseded duplicate message without an attempt', async () => {
    const hook = await useReceiver();
    const webhook = await register(shop.secretTest, { url: hook.url, events: ['stock.low'] });
    const delivery = await pendingDelivery(webhook.id, { token: 'current' });
    await delivery.send('stale');
    await deliveryQueuesDrained(); // the stale message has been handled (and deleted)
    expect(hook.requests).toHaveLength(0);
    expect(await statusOf(delivery.id)).toBe('pending');
    await delivery.send('current');
    await hook.waitFor(1);
    expect(
      await eventually(
        () => statusOf(delivery.id),
        (status) => status === 'succeeded',
      ),
    ).toBe('succeeded');
  });

  it('hides a message that arrives before its attempt is due and attempts it on time', async () => {
    const hook = await useReceiver();
    const webhook = await register(shop.secretTest, { url: hook.url, events: ['stock.low'] });
    const due = Date.now() + 3000;
    const delivery = await pendingDelivery(webhook.id, { nextAttemptAt: new Date(due).toISOString() });
    await delivery.send();
    const [request] = await hook.waitFor(1, 10_000);
    expect(request!.receivedAt).toBeGreaterThanOrEqual(due - 1000);
    expect(request!.headers['x-webhook-attempt']).toBe('1');
  });

  it('counts an unreachable receiver as a failed attempt and retries it', async () => {
    const hook = await useReceiver();
    const url = hook.url;
    await hook.close(); // nothing listens there any more
    const webhook = await register(shop.secretTest, { url, events: ['stock.low'] });
    const delivery = await pendingDelivery(webhook.id);
    await delivery.send();
    const stored = await eventually(
      () => storedDelivery(shop.tenant, delivery.id),
      (item) => Number(item?.attempt_count) >= 2,
    );
    expect(stored?.last_error).toBe('connection refused');
    expect(stored?.last_status_code).toBeUndefined();
  });
});

describe('the attempt history of a delivery', () => {
  const attempt = (number: number) => ({
    attempt: number,
    attempted_at: new Date().toISOString(),
    status_code: 500,
    duration_ms: 3,
    error: 'receiver answered 500',
    response_body: 'x'.repeat(1024),
  });

  it('lives in the delivery item and keeps the most recent attempts only', async () => {
    const webhook = await register(shop.secretTest, { url: 'https://example.com/hook', events: ['stock.low'], active: false });
    const { id } = await pendingDelivery(webhook.id);
    for (let number = 1; number <= MAX_KEPT_ATTEMPTS + 2; number++) {
      const delivery = (await readDelivery(shop.tenant, id))!;
      expect(await recordAttempt(shop.tenant, delivery, attempt(number), { status: 'pending', next_attempt_at: null })).toBe(true);
    }
    const delivery = (await readDelivery(shop.tenant, id))!;
    expect(delivery.attempt_count).toBe(MAX_KEPT_ATTEMPTS + 2);
    expect(delivery.attempts).toHaveLength(MAX_KEPT_ATTEMPTS);
    expect(delivery.attempts.map((kept) => kept.attempt)).toEqual(Array.from({ length: MAX_KEPT_ATTEMPTS }, (_, index) => index + 3));
    const detail = await call('GET', `/v1/webhooks/${webhook.id}/deliveries/${id}`, { key: shop.secretTest });
    expect(detail.status).toBe(200);
    expect(detail.body.data.attempt_count).toBe(MAX_KEPT_ATTEMPTS + 2);
    expect(detail.body.data.attempts[0]).toMatchObject({ attempt: 3, status_code: 500, error: 'receiver answered 500' });
  });

  it('records one attempt when two copies of a message report the same one', async () => {
    const webhook = await register(shop.secretTest, { url: 'https://example.com/hook', events: ['stock.low'], active: false });
    const { id } = await pendingDelivery(webhook.id);
    const seen = (await readDelivery(shop.tenant, id))!;
    expect(await recordAttempt(shop.tenant, seen, attempt(1), { status: 'pending' })).toBe(true);
    expect(
      await recordAttempt(
        shop.tenant,
        seen,
        { ...attempt(1), status_code: 200, error: null },
        { status: 'succeeded', next_attempt_at: null },
      ),
    ).toBe(false);
    const stored = (await readDelivery(shop.tenant, id))!;
    expect(stored.status).toBe('pending');
    expect(stored.attempts).toHaveLength(1);
    expect(stored.attempts[0]?.status_code).toBe(500);
  });
});

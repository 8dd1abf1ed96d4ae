/**
 * The stream router's guarantees, with the router called directly on real stream-shaped records
 * (the local stream poller runs the same function): a replayed record does not deliver twice,
 * and a crash between writing the delivery and enqueueing it leads to a retry, not a gap.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deliveryIdFor } from '#shared/webhooks/delivery-id';
import { eventPut } from '#shared/events/outbox';
import { routeStreamRecords } from '#events/router';
import { dynamo } from '#shared/clients/dynamodb';
import { setSqs } from '#shared/clients/sqs';
import { call } from '#test/support/http';
import { eventually, startReceiver, type Receiver } from '#test/support/receiver';
import { storedDelivery } from '#test/support/store';
import { freshShop, register, type Shop } from '#test/support/webhooks';

let shop: Shop;
beforeAll(async () => {
  shop = await freshShop('Webhook Router');
});
afterEach(() => setSqs(undefined));

/**
 * Writes a `stock.low` event and waits until the local stream router has handled its insert (a
 * sentinel webhook receives it), so the target webhook — activated only afterwards — gets the
 * event from the test's own router calls and nowhere else.
 */
async function routedEvent(target: number, sentinel: Receiver) {
  const { event, item } = eventPut(shop.tenant, 'stock.low', { id: 7, name: 'Flyer A5', stock: 3 });
  await dynamo().send(new PutCommand(item.Put as never));
  await eventually(async () => sentinel.requests.some((request) => JSON.parse(request.rawBody).event_id === event.id), Boolean);
  await call('PUT', `/v1/webhooks/${target}`, { key: shop.secretTest, body: { active: true } });
  const record = { eventID: '1', eventName: 'INSERT', dynamodb: { NewImage: marshall(item.Put!.Item!, { removeUndefinedValues: true }), SequenceNumber: '1' } } as unknown as DynamoDBRecord;
  return { event, record };
}

describe('the stream router', () => {
  it('delivers a replayed stream record once', async () => {
    const [sentinel, hook] = await Promise.all([startReceiver(), startReceiver()]);
    await register(shop.secretTest, { url: sentinel.url, events: ['stock.low'] });
    const webhook = await register(shop.secretTest, { url: hook.url, events: ['stock.low'], active: false });
    const { event, record } = await routedEvent(webhook.id, sentinel);
    await routeStreamRecords([record]);
    await routeStreamRecords([record]); // Lambda retried the batch, or the poller replayed it
    await hook.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(hook.requests).toHaveLength(1);
    const id = deliveryIdFor(event.id, shop.tenant, webhook.id);
    expect(JSON.parse(hook.requests[0]!.rawBody).id).toBe(id);
    expect((await storedDelivery(shop.tenant, id))?.attempt_count).toBe(1);
    await Promise.all([sentinel.close(), hook.close()]);
  });

  it('retries after a crash between recording the delivery and enqueueing it', async () => {
    const [sentinel, hook] = await Promise.all([startReceiver(), startReceiver()]);
    await register(shop.secretTest, { url: sentinel.url, events: ['stock.low'] });
    const webhook = await register(shop.secretTest, { url: hook.url, events: ['stock.low'], active: false });
    const { event, record } = await routedEvent(webhook.id, sentinel);

    setSqs({ send: async () => Promise.reject(new Error('SQS is down')) } as unknown as SQSClient);
    await expect(routeStreamRecords([record])).rejects.toThrow('SQS is down');
    const id = deliveryIdFor(event.id, shop.tenant, webhook.id);
    expect((await storedDelivery(shop.tenant, id))?.status).toBe('pending'); // recorded, not sent

    setSqs(undefined);
    await routeStreamRecords([record]); // the retry of the failed batch
    const [request] = await hook.waitFor(1);
    expect(JSON.parse(request!.rawBody).id).toBe(id);
    expect(await eventually(async () => (await storedDelivery(shop.tenant, id))?.status, (status) => status === 'succeeded')).toBe('succeeded');
    await Promise.all([sentinel.close(), hook.close()]);
  });
});
